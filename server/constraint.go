package server

import (
	"errors"
	"maps"
	"strings"

	"github.com/mlxrun/mlx/runtime/grammar"
	"github.com/mlxrun/mlx/server/constrain"
	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/server/toolparse"
)

// maxForcedCalls bounds the calls of tool_choice "required" with parallel
// tool calls; a named tool_choice, or parallel_tool_calls false, gets one.
const maxForcedCalls = 4

// callSpec sets the tool calls of spec under a tool_choice mode (an
// openai.ToolChoice* mode): forced calls for required and named (one, or
// up to maxForcedCalls for required with parallel calls), optional calls
// for auto, none otherwise. tools are the tools the calls may use.
func callSpec(spec *constrain.Spec, mode string, parallel bool, syntax toolparse.Format, tools []constrain.Tool) {
	switch mode {
	case openai.ToolChoiceRequired, openai.ToolChoiceNamed:
		spec.Calls, spec.MaxCalls = constrain.CallsRequired, 1
		if mode == openai.ToolChoiceRequired && parallel {
			spec.MaxCalls = maxForcedCalls
		}
	case openai.ToolChoiceAuto:
		spec.Calls, spec.MaxCalls = constrain.CallsOptional, maxForcedCalls
		if !parallel {
			spec.MaxCalls = 1
		}
	}
	if spec.Calls != constrain.CallsNone {
		spec.Syntax, spec.Tools = syntax, tools
	}
}

// thinkingKwargs returns the template variables of a constrained request:
// a constraint applies from the first token the model writes, so thinking
// is turned off (enable_thinking false) unless the request turns it on.
func thinkingKwargs(kw map[string]any, constrained bool) map[string]any {
	if _, set := kw["enable_thinking"]; set || !constrained {
		return kw
	}
	kw = maps.Clone(kw)
	if kw == nil {
		kw = map[string]any{}
	}
	kw["enable_thinking"] = false
	return kw
}

// thinkMode is how a constrained output may begin with reasoning: after
// a prompt that opened <think>, reasoning then </think>; when the request
// turned thinking on, an optional <think>…</think> block. Both are bounded
// (constrain.ThinkBudget characters, none of them '<').
func thinkMode(inReasoning bool, kw map[string]any) constrain.Think {
	switch {
	case inReasoning:
		return constrain.ThinkOpen
	case kw["enable_thinking"] == true:
		return constrain.ThinkOptional
	}
	return constrain.ThinkNone
}

// compileSpec returns the grammar of spec (nil when it constrains
// nothing), as an error naming the plan's parameter when it cannot be
// built.
func (s *Server) compileSpec(spec *constrain.Spec, p *plan) (*grammar.Grammar, error) {
	g, err := s.grammars.Grammar(spec)
	if err == nil {
		return g, nil
	}
	var e *constrain.Error
	if !errors.As(err, &e) {
		return nil, openai.Invalid("", openai.CodeInvalidValue, "The output constraints cannot be used: %v.", err)
	}
	reason := strings.TrimSuffix(e.Err.Error(), ".")
	switch e.Part {
	case constrain.PartGrammar:
		return nil, planErr(keyGrammar, openai.CodeInvalidValue, "Invalid grammar: %s.", reason)
	case constrain.PartSchema:
		return nil, planErr(keySchema, openai.CodeInvalidValue, "Invalid schema for %s '%s': %s.", paramKey(keyFormat), p.format.schemaName, reason)
	}
	name := spec.Tools[e.Tool].Name
	pe := planErr(keyToolSchema, openai.CodeInvalidValue, "Invalid schema for function '%s': %s.", name, reason)
	if pe.index = p.toolIndex(name); pe.index < 0 {
		pe.key = keyTools
	}
	return nil, pe
}
