package server

import (
	"errors"
	"fmt"
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

// Parameters that constraint errors name.
const (
	paramGrammar = "grammar"
	paramSchema  = "response_format.json_schema.schema"
)

// chatSpec is the output constraint a chat request asks for, before its
// prompt is rendered: a grammar, a JSON response format, forced tool
// calls (or, with tool_choice auto and a JSON format, either).
func chatSpec(req *openai.ChatRequest, syntax toolparse.Format) (constrain.Spec, error) {
	spec, err := formatSpec(req.Ext, req.ResponseFormat)
	if err != nil {
		return spec, err
	}
	tc := req.ToolChoice
	if (tc.Mode == openai.ToolChoiceRequired || tc.Mode == openai.ToolChoiceNamed) && spec.Grammar != "" {
		return spec, openai.Invalid(paramGrammar, openai.CodeInvalidValue, "grammar cannot be combined with tool_choice %q: the grammar would decide the output alone.", tc.Mode)
	}
	var tools []constrain.Tool
	for _, t := range req.Tools {
		if tc.Mode != openai.ToolChoiceNamed || t.Function.Name == tc.Function {
			tools = append(tools, constrain.Tool{Name: t.Function.Name, Parameters: t.Function.Parameters})
		}
	}
	callSpec(&spec, tc.Mode, openai.Flag(req.ParallelToolCalls, true), syntax, tools)
	return spec, nil
}

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

// formatSpec is the constraint of a grammar extension or a JSON response
// format (chat completions and completions).
func formatSpec(x openai.Ext, rf *openai.ResponseFormat) (constrain.Spec, error) {
	var spec constrain.Spec
	if rf != nil && rf.Type != "text" {
		spec.JSON = true
		if rf.JSONSchema != nil {
			spec.Schema = rf.JSONSchema.Schema
		}
	}
	if x.Grammar != nil {
		if spec.JSON {
			return spec, openai.Invalid(paramGrammar, openai.CodeInvalidValue, "grammar cannot be combined with response_format %q: give one or the other.", rf.Type)
		}
		spec.Grammar = *x.Grammar
	}
	return spec, nil
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
// nothing), as a 400 naming the request field when it cannot be built.
func (s *Server) compileSpec(spec *constrain.Spec, rf *openai.ResponseFormat, tools []openai.Tool) (*grammar.Grammar, error) {
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
		return nil, openai.Invalid(paramGrammar, openai.CodeInvalidValue, "Invalid grammar: %s.", reason)
	case constrain.PartSchema:
		name := ""
		if rf != nil && rf.JSONSchema != nil {
			name = rf.JSONSchema.Name
		}
		return nil, openai.Invalid(paramSchema, openai.CodeInvalidValue, "Invalid schema for response_format '%s': %s.", name, reason)
	}
	name, param := spec.Tools[e.Tool].Name, "tools"
	for i, t := range tools {
		if t.Function.Name == name {
			param = fmt.Sprintf("tools[%d].function.parameters", i)
		}
	}
	return nil, openai.Invalid(param, openai.CodeInvalidValue, "Invalid schema for function '%s': %s.", name, reason)
}
