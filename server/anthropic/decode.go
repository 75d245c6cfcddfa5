package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// fieldError is a request field with a wrong shape.
type fieldError struct{ field, msg string }

func (e *fieldError) Error() string { return e.field + ": " + e.msg }

// Parse decodes and checks the body of POST /v1/messages; count is for
// /v1/messages/count_tokens, which takes no max_tokens. Unknown fields
// are ignored, as clients send newer ones this server has no use for.
func Parse(body []byte, count bool) (*Request, *Error) {
	var r Request
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, decodeError(err)
	}
	if err := r.check(count); err != nil {
		return nil, Invalid("%v", err)
	}
	return &r, nil
}

// decodeError words a JSON decoding error.
func decodeError(err error) *Error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var fe *fieldError
	switch {
	case errors.As(err, &se):
		return Invalid("The request body is not valid JSON: %v.", err)
	case errors.As(err, &fe):
		return Invalid("%v.", fe)
	case errors.As(err, &te) && te.Field != "":
		return Invalid("%s: expected %s, got %s.", te.Field, goType(te.Type.Kind().String()), te.Value)
	}
	return Invalid("The request body cannot be read: %v.", err)
}

// goType names a Go kind as a JSON type.
func goType(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice":
		return "an array"
	case "struct", "map", "ptr":
		return "an object"
	}
	return "a number"
}

// check validates the request.
func (r *Request) check(count bool) error {
	switch {
	case r.Model == "":
		return errors.New("model: Field required")
	case !count && r.MaxTokens < 1:
		return errors.New("max_tokens: Field required, an integer of at least 1")
	case len(r.Messages) == 0:
		return errors.New("messages: at least one message is required")
	case r.Temperature != nil && (*r.Temperature < 0 || *r.Temperature > 1):
		return fmt.Errorf("temperature: must be between 0 and 1, got %v", *r.Temperature)
	case r.TopP != nil && (*r.TopP < 0 || *r.TopP > 1):
		return fmt.Errorf("top_p: must be between 0 and 1, got %v", *r.TopP)
	case r.TopK != nil && *r.TopK < 0:
		return fmt.Errorf("top_k: must not be negative, got %d", *r.TopK)
	}
	for i, s := range r.StopSequences {
		if s == "" {
			return fmt.Errorf("stop_sequences.%d: must not be empty", i)
		}
	}
	for i, b := range r.System {
		if b.Type != BlockText {
			return fmt.Errorf("system.%d.type: the system prompt takes text blocks, got %q", i, b.Type)
		}
	}
	for i, m := range r.Messages {
		if err := checkMessage(m); err != nil {
			return fmt.Errorf("messages.%d.%w", i, err)
		}
	}
	if err := r.checkTools(); err != nil {
		return err
	}
	return r.checkThinking(count)
}

// checkMessage validates a message's role and blocks.
func checkMessage(m Message) error {
	if m.Role != RoleUser && m.Role != RoleAssistant {
		hint := ""
		if m.Role == "system" {
			hint = " (give the system prompt as the top-level system parameter)"
		}
		return fmt.Errorf("role: must be user or assistant, got %q%s", m.Role, hint)
	}
	if m.Content == nil {
		return errors.New("content: Field required")
	}
	for j, b := range m.Content {
		if err := checkBlock(m.Role, b); err != nil {
			return fmt.Errorf("content.%d.%w", j, err)
		}
	}
	return nil
}

// checkBlock validates a content block of a message of role.
func checkBlock(role string, b Block) error {
	switch b.Type {
	case BlockText, BlockRedactedThinking:
	case BlockThinking:
		if role != RoleAssistant {
			return errors.New("type: thinking blocks belong to assistant messages")
		}
	case BlockImage, BlockDocument:
		return fmt.Errorf("type: %s blocks are not supported: this server runs text-only models", b.Type)
	case BlockToolUse:
		if role != RoleAssistant {
			return errors.New("type: tool_use blocks belong to assistant messages")
		}
		if b.ID == "" || b.Name == "" {
			return errors.New("tool_use: id and name are required")
		}
		if !isObject(b.Input) {
			return errors.New("input: must be an object")
		}
	case BlockToolResult:
		if role != RoleUser {
			return errors.New("type: tool_result blocks belong to user messages")
		}
		if b.ToolUseID == "" {
			return errors.New("tool_use_id: Field required")
		}
		if b.Content != nil {
			for k, c := range *b.Content {
				if c.Type != BlockText {
					return fmt.Errorf("content.%d.type: a tool result takes text blocks, got %q", k, c.Type)
				}
			}
		}
	default:
		return fmt.Errorf("type: unknown content block type %q", b.Type)
	}
	return nil
}

// checkTools validates tools and tool_choice.
func (r *Request) checkTools() error {
	names := map[string]bool{}
	for i, t := range r.Tools {
		switch {
		case t.Type != "" && t.Type != "custom":
			return fmt.Errorf("tools.%d.type: the server tool %q is not supported; declare custom tools with input_schema", i, t.Type)
		case t.Name == "":
			return fmt.Errorf("tools.%d.name: Field required", i)
		case names[t.Name]:
			return fmt.Errorf("tools.%d.name: the tool %q is declared twice", i, t.Name)
		case !isObject(t.InputSchema):
			return fmt.Errorf("tools.%d.input_schema: must be a JSON schema object", i)
		}
		names[t.Name] = true
	}
	tc := r.ToolChoice
	if tc == nil {
		return nil
	}
	switch tc.Type {
	case ChoiceAuto, ChoiceNone:
	case ChoiceAny:
		if len(r.Tools) == 0 {
			return errors.New("tool_choice: type any needs tools")
		}
	case ChoiceTool:
		if !names[tc.Name] {
			return fmt.Errorf("tool_choice.name: no tool named %q is declared", tc.Name)
		}
	default:
		return fmt.Errorf("tool_choice.type: must be auto, any, tool or none, got %q", tc.Type)
	}
	return nil
}

// checkThinking validates the thinking configuration.
func (r *Request) checkThinking(count bool) error {
	t := r.Thinking
	if t == nil {
		return nil
	}
	switch t.Type {
	case ThinkingDisabled, "adaptive":
	case ThinkingEnabled:
		if t.BudgetTokens < 1 {
			return errors.New("thinking.budget_tokens: Field required, an integer of at least 1")
		}
		if !count && t.BudgetTokens >= r.MaxTokens {
			return fmt.Errorf("thinking.budget_tokens: must be less than max_tokens (%d), got %d", r.MaxTokens, t.BudgetTokens)
		}
	default:
		return fmt.Errorf("thinking.type: must be enabled or disabled, got %q", t.Type)
	}
	return nil
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{' && json.Valid(raw)
}

// Enabled reports whether the request turns thinking on (true, true) or
// off (false, true); ok is false when it leaves it to the model.
func (t *Thinking) Enabled() (on, ok bool) {
	if t == nil {
		return false, false
	}
	return t.Type != ThinkingDisabled, true
}
