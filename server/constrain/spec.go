// Package constrain builds the grammars that limit what a model may write:
// a JSON answer (any object, or one valid against a JSON schema), forced
// tool calls in the syntax of the model's chat template whose arguments
// match each tool's parameter schema, or a client's own GBNF grammar; each
// optionally after a bounded <think>…</think> block. A Cache keeps the
// compiled grammars of recent requests.
package constrain

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mlxrun/mlx/runtime/grammar"
	"github.com/mlxrun/mlx/runtime/grammar/jsonschema"
	"github.com/mlxrun/mlx/server/toolparse"
)

// ErrSpec reports a Spec that asks for nothing or for incompatible things.
var ErrSpec = errors.New("invalid output constraint")

// Parts of a Spec that an Error names.
const (
	PartGrammar = "grammar" // Spec.Grammar
	PartSchema  = "schema"  // Spec.Schema
	PartTool    = "tool"    // the parameters of Spec.Tools[Error.Tool]
)

// Error is a grammar or schema of a Spec that cannot be used.
type Error struct {
	Part string // PartGrammar, PartSchema or PartTool
	Tool int    // index into Spec.Tools, for PartTool
	Err  error  // wraps grammar.ErrSyntax, jsonschema.ErrUnsupported, ...
}

func (e *Error) Error() string {
	if e.Part == PartTool {
		return fmt.Sprintf("tool %d parameters: %v", e.Tool, e.Err)
	}
	return e.Part + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Calls say whether the output calls tools.
type Calls int

// The call modes.
const (
	CallsNone     Calls = iota // no tool calls
	CallsOptional              // the JSON answer, or tool calls instead (tool_choice auto)
	CallsRequired              // tool calls only (tool_choice required or named)
)

// Think says how the output may begin with reasoning.
type Think int

// The reasoning modes.
const (
	ThinkNone     Think = iota // no reasoning block
	ThinkOptional              // an optional <think>…</think> block first (Harmony: an analysis message)
	ThinkOpen                  // the prompt opened <think>: reasoning, then </think>
)

// ThinkBudget is the most characters of reasoning a constrained output
// may hold before </think> is forced.
const ThinkBudget = 1024

// Tool is a function whose calls a grammar may produce.
type Tool struct {
	Name       string          // letters, digits, '_' and '-' (checked by Build)
	Parameters json.RawMessage // JSON schema of the arguments; empty: no arguments
}

// Spec says what the output must be. Grammar excludes the JSON and call
// fields; with none of them set, there is no constraint.
type Spec struct {
	// Grammar is GBNF source whose rule root the output must match.
	Grammar string `json:",omitempty"`
	// JSON asks for a JSON answer: valid against Schema, or any object
	// when Schema is empty.
	JSON   bool            `json:",omitempty"`
	Schema json.RawMessage `json:",omitempty"`
	// Calls, Tools, MaxCalls and Syntax describe tool calls: one to
	// MaxCalls (at least 1) calls of any of Tools, in the syntax of the
	// model's template.
	Calls    Calls            `json:",omitempty"`
	Tools    []Tool           `json:",omitempty"`
	MaxCalls int              `json:",omitempty"`
	Syntax   toolparse.Format `json:",omitempty"`
	// Think allows or requires a reasoning block before the rest.
	Think Think `json:",omitempty"`
}

// Empty reports whether s constrains nothing.
func (s *Spec) Empty() bool {
	return s.Grammar == "" && !s.JSON && s.Calls != CallsRequired
}

// calls reports whether the output may hold tool calls: always when they
// are required, as an alternative to a JSON answer when optional (without
// a JSON answer, optional calls constrain nothing).
func (s *Spec) calls() bool {
	return s.Calls == CallsRequired || s.Calls == CallsOptional && s.JSON && s.Grammar == ""
}

// Build returns the GBNF source of s (root is its start rule).
func Build(s *Spec) (string, error) {
	var b strings.Builder
	var body []string
	switch {
	case s.Grammar != "" && (s.JSON || s.Calls == CallsRequired):
		return "", fmt.Errorf("%w: a grammar cannot be combined with a JSON output format or forced tool calls", ErrSpec)
	case s.Grammar != "":
		if _, err := grammar.Parse(s.Grammar); err != nil {
			return "", &Error{Part: PartGrammar, Err: err}
		}
		b.WriteString(prefixRules(s.Grammar, "g-"))
		body = append(body, "g-root")
	}
	if s.JSON && s.Calls != CallsRequired {
		src, err := schemaSource(s.Schema)
		if err != nil {
			return "", &Error{Part: PartSchema, Err: err}
		}
		b.WriteString(prefixRules(src, "j-"))
		body = append(body, "j-root")
		if s.Syntax == toolparse.FormatHarmony {
			body[len(body)-1] = fmt.Sprintf("%q j-root", toolparse.HarmonyChannel+"final"+toolparse.HarmonyMessage)
		}
	}
	if s.calls() {
		src, err := callsSource(s)
		if err != nil {
			return "", err
		}
		b.WriteString(src)
		body = append(body, "calls")
	}
	if len(body) == 0 {
		return "", fmt.Errorf("%w: nothing to constrain", ErrSpec)
	}
	head := "(" + strings.Join(body, " | ") + ")"
	if s.Syntax == toolparse.FormatHarmony {
		return harmonyRoot(s.Think, head) + b.String(), nil
	}
	open, end := `"<think>"`, `"</think>" "\n"{0,2}`
	if s.Syntax == toolparse.FormatGemma4 {
		open, end = fmt.Sprintf("%q", toolparse.Gemma4Channel+"thought\n"), fmt.Sprintf("%q", toolparse.Gemma4ChannelEnd)
	}
	switch s.Think {
	case ThinkOptional:
		head = "( " + open + " think )? " + head
	case ThinkOpen:
		head = "think " + head
	}
	root := "root ::= " + head + "\n"
	if s.Think != ThinkNone {
		root += fmt.Sprintf("think ::= [^<]{0,%d} %s\n", ThinkBudget, end)
	}
	return root + b.String(), nil
}

// harmonyRoot is the root rule of a Harmony output: unless Think is
// ThinkNone, an optional analysis message first (bounded as a <think>
// block is), then head, the message the constraint is about.
func harmonyRoot(think Think, head string) string {
	if think == ThinkNone {
		return "root ::= " + head + "\n"
	}
	return fmt.Sprintf("root ::= ( %q think )? %s\nthink ::= [^<]{0,%d} %q\n", toolparse.HarmonyChannel+"analysis"+toolparse.HarmonyMessage, head,
		ThinkBudget, toolparse.HarmonyEnd+toolparse.HarmonyStart+"assistant")
}

// schemaSource converts a JSON schema, or any object when it is empty.
func schemaSource(schema json.RawMessage) (string, error) {
	if len(schema) == 0 || string(schema) == "null" {
		return jsonschema.GBNF([]byte(`{"type": "object"}`), jsonschema.Options{ExtraProperties: true})
	}
	return jsonschema.GBNF(schema, jsonschema.Options{})
}
