package openai

import (
	"encoding/json"
	"fmt"
	"regexp"
)

// Tool is a function the model may call.
type Tool struct {
	Type     string       `json:"type"`
	Function FunctionDecl `json:"function"`
}

// FunctionDecl declares a function: its name, what it does and its JSON
// schema parameters.
type FunctionDecl struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
	Strict      *bool           `json:"strict,omitempty"`
}

// ToolCall is a call of a function by the model.
type ToolCall struct {
	Index    *int         `json:"index,omitempty"` // in stream deltas only
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function FunctionCall `json:"function"`
}

// FunctionCall names the function and holds its arguments, a JSON text.
type FunctionCall struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// Tool choice modes.
const (
	ToolChoiceNone     = "none"
	ToolChoiceAuto     = "auto"
	ToolChoiceRequired = "required"
	ToolChoiceNamed    = "named"
)

// ToolChoice is the parsed tool_choice: a mode, and the function of the
// named mode.
type ToolChoice struct {
	Mode     string
	Function string
}

var namePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

func validateTools(tools []Tool) *Error {
	seen := map[string]bool{}
	for i, t := range tools {
		p := fmt.Sprintf("tools[%d]", i)
		if t.Type != "function" {
			return Invalid(p+".type", CodeInvalidValue, "Invalid value: '%s'. Supported values are: 'function'.", t.Type)
		}
		if !namePattern.MatchString(t.Function.Name) {
			return Invalid(p+".function.name", CodeInvalidValue, "Invalid function name %q: it must be 1 to 64 letters, digits, underscores or dashes.", t.Function.Name)
		}
		if seen[t.Function.Name] {
			return Invalid(p+".function.name", CodeInvalidValue, "The function name %q is declared twice.", t.Function.Name)
		}
		seen[t.Function.Name] = true
		if !isNull(t.Function.Parameters) && kind(t.Function.Parameters) != "object" {
			return Invalid(p+".function.parameters", CodeInvalidType, "'%s.function.parameters' must be a JSON schema object.", p)
		}
	}
	return nil
}

func (c *ToolCall) validate(param string, i int) *Error {
	p := fmt.Sprintf("%s.tool_calls[%d]", param, i)
	if c.Type != "" && c.Type != "function" {
		return Invalid(p+".type", CodeInvalidValue, "Invalid value: '%s'. Supported values are: 'function'.", c.Type)
	}
	if c.Function.Name == "" {
		return Invalid(p+".function.name", CodeMissing, "Missing required parameter: '%s.function.name'.", p)
	}
	return nil
}

// parseToolChoice reads tool_choice: "none", "auto", "required" or
// {"type":"function","function":{"name":...}} naming a declared tool. Unset,
// it is "auto" with tools and "none" without.
func parseToolChoice(raw json.RawMessage, tools []Tool) (ToolChoice, *Error) {
	if isNull(raw) {
		if len(tools) == 0 {
			return ToolChoice{Mode: ToolChoiceNone}, nil
		}
		return ToolChoice{Mode: ToolChoiceAuto}, nil
	}
	if len(tools) == 0 {
		return ToolChoice{}, Invalid("tool_choice", CodeInvalidValue, "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.")
	}
	switch kind(raw) {
	case "string":
		var s string
		_ = json.Unmarshal(raw, &s)
		switch s {
		case ToolChoiceNone, ToolChoiceAuto, ToolChoiceRequired:
			return ToolChoice{Mode: s}, nil
		}
		return ToolChoice{}, Invalid("tool_choice", CodeInvalidValue, "Invalid value: '%s'. Supported values are: 'none', 'auto' and 'required'.", s)
	case "object":
		var named struct {
			Type     string `json:"type"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		if e := decode(raw, &named, "tool_choice"); e != nil {
			return ToolChoice{}, e
		}
		if named.Type != "function" {
			return ToolChoice{}, Invalid("tool_choice.type", CodeInvalidValue, "Invalid value: '%s'. Supported values are: 'function'.", named.Type)
		}
		for _, t := range tools {
			if t.Function.Name == named.Function.Name {
				return ToolChoice{Mode: ToolChoiceNamed, Function: named.Function.Name}, nil
			}
		}
		return ToolChoice{}, Invalid("tool_choice.function.name", CodeInvalidValue, "Invalid value for 'tool_choice': no function named %q in 'tools'.", named.Function.Name)
	}
	return ToolChoice{}, Invalid("tool_choice", CodeInvalidType, "tool_choice must be a string or an object.")
}

// ResponseFormat is response_format: text, json_object or json_schema.
type ResponseFormat struct {
	Type       string      `json:"type"`
	JSONSchema *JSONSchema `json:"json_schema"`
}

// JSONSchema is the schema of a json_schema response format.
type JSONSchema struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Strict      *bool           `json:"strict"`
}

func (f *ResponseFormat) validate() *Error {
	if f == nil {
		return nil
	}
	if schema, e := formatKind(f.Type, "response_format.type"); !schema || e != nil {
		return e
	}
	if f.JSONSchema == nil {
		return Invalid("response_format.json_schema", CodeMissing, "Missing required parameter: 'response_format.json_schema'.")
	}
	return validateSchemaFormat("response_format.json_schema", f.JSONSchema.Name, f.JSONSchema.Schema)
}

// formatKind checks the type of an output format, the field param, and
// reports whether it is json_schema.
func formatKind(typ, param string) (bool, *Error) {
	switch typ {
	case "text", "json_object":
		return false, nil
	case "json_schema":
		return true, nil
	case "":
		return false, Invalid(param, CodeMissing, "Missing required parameter: '%s'.", param)
	}
	return false, Invalid(param, CodeInvalidValue, "Invalid value: '%s'. Supported values are: 'text', 'json_object' and 'json_schema'.", typ)
}

// validateSchemaFormat checks the name and schema of a json_schema format
// whose fields are under prefix.
func validateSchemaFormat(prefix, name string, schema json.RawMessage) *Error {
	if !namePattern.MatchString(name) {
		return Invalid(prefix+".name", CodeInvalidValue, "Invalid '%s.name' %q: it must be 1 to 64 letters, digits, underscores or dashes.", prefix, name)
	}
	if !isNull(schema) && kind(schema) != "object" {
		return Invalid(prefix+".schema", CodeInvalidType, "'%s.schema' must be a JSON schema object.", prefix)
	}
	return nil
}
