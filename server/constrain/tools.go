package constrain

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mlxrun/mlx/runtime/grammar/jsonschema"
	"github.com/mlxrun/mlx/server/toolparse"
)

// noArguments is the parameter schema of a tool that declares none.
var noArguments = json.RawMessage(`{"type": "object", "properties": {}}`)

// callsSource returns the rule "calls" (one to s.MaxCalls tool calls in
// s.Syntax) with the rules it needs: "call", a call of any one of the
// tools, and each tool's argument rules under the prefix t<i>-.
func callsSource(s *Spec) (string, error) {
	if len(s.Tools) == 0 {
		return "", fmt.Errorf("%w: tool calls without tools", ErrSpec)
	}
	key := "arguments"
	if s.Syntax == toolparse.FormatLlama3 {
		key = "parameters"
	}
	var b strings.Builder
	alts := make([]string, len(s.Tools))
	for i, t := range s.Tools {
		if t.Name == "" || strings.IndexFunc(t.Name, func(r rune) bool { return r > 0x7f || !isNameChar(byte(r)) }) >= 0 {
			return "", &Error{Part: PartTool, Tool: i, Err: fmt.Errorf("%w: function name %q is not letters, digits, '_' and '-'", ErrSpec, t.Name)}
		}
		params := t.Parameters
		if len(params) == 0 || string(params) == "null" {
			params = noArguments
		}
		src, err := jsonschema.GBNF(params, jsonschema.Options{})
		if err != nil {
			return "", &Error{Part: PartTool, Tool: i, Err: err}
		}
		p := fmt.Sprintf("t%d-", i)
		b.WriteString(prefixRules(src, p))
		alts[i] = fmt.Sprintf(`"{\"name\": \"%s\", \"%s\": " %sroot "}"`, t.Name, key, p)
		switch s.Syntax {
		case toolparse.FormatHarmony:
			alts[i] = fmt.Sprintf("%q %sroot", harmonyHeader(t.Name), p)
		case toolparse.FormatGemma4:
			// JSON arguments, which the Gemma 4 parser reads beside the
			// model's own value syntax.
			alts[i] = fmt.Sprintf("%q %sroot %q", toolparse.Gemma4Call+"call:"+t.Name, p, toolparse.Gemma4CallEnd)
		}
	}
	fmt.Fprintf(&b, "call ::= %s\n", strings.Join(alts, " | "))
	more := func(sep string) string {
		if s.MaxCalls <= 1 {
			return ""
		}
		return fmt.Sprintf(" ( %s ){0,%d}", sep, s.MaxCalls-1)
	}
	switch s.Syntax {
	case toolparse.FormatLlama3:
		fmt.Fprintf(&b, "calls ::= call%s\n", more(`"; " call`))
	case toolparse.FormatMistral:
		fmt.Fprintf(&b, "calls ::= %q call%s \"]\"\n", toolparse.MistralCalls+"[", more(`", " call`))
	case toolparse.FormatHarmony:
		fmt.Fprintf(&b, "calls ::= call%s\n", more(fmt.Sprintf("%q call", toolparse.HarmonyCall+toolparse.HarmonyStart+"assistant")))
	case toolparse.FormatGemma4:
		fmt.Fprintf(&b, "calls ::= call%s\n", more("call"))
	default:
		fmt.Fprintf(&b, "calls ::= hcall%s\n", more(`"\n" hcall`))
		fmt.Fprintf(&b, "hcall ::= %q call %q\n", toolparse.HermesOpen+"\n", "\n"+toolparse.HermesClose)
	}
	return b.String(), nil
}

// harmonyHeader is the header of a Harmony message that calls the function
// name (the output after the prompt's "<|start|>assistant"; later calls
// follow "<|call|><|start|>assistant"). The grammar can only spell its
// markers in plain text tokens, which the parser reads the same way.
func harmonyHeader(name string) string {
	return toolparse.HarmonyChannel + "commentary to=functions." + name + " <|constrain|>json" + toolparse.HarmonyMessage
}
