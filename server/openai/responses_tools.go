package openai

import (
	"encoding/json"
	"fmt"
	"slices"
)

// FunctionTool is a function tool of the Responses API: the fields sit
// beside "type", not inside "function".
type FunctionTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description *string         `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      *bool           `json:"strict"`
}

// parseTools reads tools (function tools only) and tool_choice.
func (r *ResponseRequest) parseTools() *Error {
	seen := map[string]bool{}
	for i, raw := range r.ToolsRaw {
		p := fmt.Sprintf("tools[%d]", i)
		var t FunctionTool
		if e := decode(raw, &t, p); e != nil {
			return e
		}
		switch {
		case t.Type == "":
			return Invalid(p+".type", CodeMissing, "Missing required parameter: '%s.type'.", p)
		case t.Type != "function":
			return Invalid(p+".type", CodeUnsupported, "Tools of type '%s' are not supported: this server runs function tools only.", t.Type)
		case t.Name == "":
			return Invalid(p+".name", CodeMissing, "Missing required parameter: '%s.name'.", p)
		case !namePattern.MatchString(t.Name):
			return Invalid(p+".name", CodeInvalidValue, "Invalid function name %q: it must be 1 to 64 letters, digits, underscores or dashes.", t.Name)
		case seen[t.Name]:
			return Invalid(p+".name", CodeInvalidValue, "The function name %q is declared twice.", t.Name)
		case !isNull(t.Parameters) && kind(t.Parameters) != "object":
			return Invalid(p+".parameters", CodeInvalidType, "'%s.parameters' must be a JSON schema object.", p)
		}
		if isNull(t.Parameters) {
			t.Parameters = nil
		}
		seen[t.Name] = true
		r.Tools = append(r.Tools, t)
	}
	tc, e := parseResponseToolChoice(r.ToolChoiceRaw, seen)
	r.ToolChoice = tc
	return e
}

// parseResponseToolChoice reads tool_choice: "none", "auto", "required"
// or {"type":"function","name":...} naming a declared tool. Unset, it is
// "auto" with tools and "none" without.
func parseResponseToolChoice(raw json.RawMessage, declared map[string]bool) (ToolChoice, *Error) {
	if isNull(raw) {
		if len(declared) == 0 {
			return ToolChoice{Mode: ToolChoiceNone}, nil
		}
		return ToolChoice{Mode: ToolChoiceAuto}, nil
	}
	var tc ToolChoice
	switch kind(raw) {
	case "string":
		var s string
		_ = json.Unmarshal(raw, &s)
		if !slices.Contains([]string{ToolChoiceNone, ToolChoiceAuto, ToolChoiceRequired}, s) {
			return tc, Invalid("tool_choice", CodeInvalidValue, "Invalid value: '%s'. Supported values are: 'none', 'auto' and 'required'.", s)
		}
		tc.Mode = s
	case "object":
		var named struct {
			Type string `json:"type"`
			Name string `json:"name"`
		}
		if e := decode(raw, &named, "tool_choice"); e != nil {
			return tc, e
		}
		if named.Type != "function" {
			return tc, Invalid("tool_choice.type", CodeUnsupported, "Invalid value: '%s'. Supported values are: 'function'.", named.Type)
		}
		if !declared[named.Name] {
			return tc, Invalid("tool_choice.name", CodeInvalidValue, "Invalid value for 'tool_choice': no function named %q in 'tools'.", named.Name)
		}
		tc = ToolChoice{Mode: ToolChoiceNamed, Function: named.Name}
	default:
		return tc, Invalid("tool_choice", CodeInvalidType, "tool_choice must be a string or an object.")
	}
	if tc.Mode != ToolChoiceNone && tc.Mode != ToolChoiceAuto && len(declared) == 0 {
		return tc, Invalid("tool_choice", CodeInvalidValue, "Invalid value for 'tool_choice': it requires 'tools'.")
	}
	return tc, nil
}

// Echo returns the tool choice as a response shows it.
func (tc ToolChoice) Echo() any {
	if tc.Mode == ToolChoiceNamed {
		return map[string]string{"type": "function", "name": tc.Function}
	}
	return tc.Mode
}

// TextConfig is the text option of a response: the output format.
type TextConfig struct {
	Format    *TextFormat `json:"format,omitempty"`
	Verbosity *string     `json:"verbosity,omitempty"`
}

// TextFormat is text.format: text, json_object or json_schema.
type TextFormat struct {
	Type        string          `json:"type"`
	Name        string          `json:"name,omitempty"`
	Description string          `json:"description,omitempty"`
	Schema      json.RawMessage `json:"schema,omitempty"`
	Strict      *bool           `json:"strict,omitempty"`
}

func (c *TextConfig) validate() *Error {
	if c == nil {
		return nil
	}
	if c.Verbosity != nil && !slices.Contains([]string{"low", "medium", "high"}, *c.Verbosity) {
		return Invalid("text.verbosity", CodeInvalidValue, "Invalid value: '%s'. Supported values are: 'low', 'medium' and 'high'.", *c.Verbosity)
	}
	f := c.Format
	if f == nil {
		return nil
	}
	if schema, e := formatKind(f.Type, "text.format.type"); !schema || e != nil {
		return e
	}
	if isNull(f.Schema) {
		return Invalid("text.format.schema", CodeMissing, "Missing required parameter: 'text.format.schema'.")
	}
	return validateSchemaFormat("text.format", f.Name, f.Schema)
}

// FormatType returns the type of text.format, "text" when unset.
func (c *TextConfig) FormatType() string {
	if c == nil || c.Format == nil {
		return "text"
	}
	return c.Format.Type
}

// ReasoningConfig is the reasoning option of a response.
type ReasoningConfig struct {
	Effort          *string `json:"effort"`
	Summary         *string `json:"summary"`
	GenerateSummary *string `json:"generate_summary,omitempty"`
}

// ReasoningEfforts are the values of reasoning.effort.
var ReasoningEfforts = []string{"none", "minimal", "low", "medium", "high", "xhigh"}

// validateEffort checks a reasoning effort (nil: unset) named param.
func validateEffort(param string, effort *string) *Error {
	if effort != nil && !slices.Contains(ReasoningEfforts, *effort) {
		return Invalid(param, CodeInvalidValue, "Invalid value: '%s'. Supported values are: %s.", *effort, quoteList(ReasoningEfforts))
	}
	return nil
}

func (c *ReasoningConfig) validate() *Error {
	if c == nil {
		return nil
	}
	if e := validateEffort("reasoning.effort", c.Effort); e != nil {
		return e
	}
	summaries := []string{"auto", "concise", "detailed"}
	for _, f := range []struct {
		name string
		v    *string
	}{{"reasoning.summary", c.Summary}, {"reasoning.generate_summary", c.GenerateSummary}} {
		if f.v != nil && !slices.Contains(summaries, *f.v) {
			return Invalid(f.name, CodeInvalidValue, "Invalid value: '%s'. Supported values are: 'auto', 'concise' and 'detailed'.", *f.v)
		}
	}
	return nil
}

// Thinking reports whether the effort turns a model's thinking on (true)
// or off (false); ok is false when the request leaves it to the template.
func (c *ReasoningConfig) Thinking() (on, ok bool) {
	if c == nil || c.Effort == nil {
		return false, false
	}
	return *c.Effort != "none" && *c.Effort != "minimal", true
}
