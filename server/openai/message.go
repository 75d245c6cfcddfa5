package openai

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Message roles.
const (
	RoleSystem    = "system"
	RoleDeveloper = "developer"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one chat message as the chat template receives it: the
// content is the text of a string content or of the text parts joined by
// newlines.
type Message struct {
	Role             string          `json:"role"`
	ContentRaw       json.RawMessage `json:"content"`
	Name             string          `json:"name,omitempty"`
	ToolCalls        []ToolCall      `json:"tool_calls,omitempty"`
	ToolCallID       string          `json:"tool_call_id,omitempty"`
	ReasoningContent string          `json:"reasoning_content,omitempty"`
	Reasoning        string          `json:"reasoning,omitempty"`

	// Content is the text of the message (filled by parsing).
	Content string `json:"-"`
}

// contentPart is one element of an array content.
type contentPart struct {
	Type    string          `json:"type"`
	Text    *string         `json:"text"`
	Refusal *string         `json:"refusal"`
	Other   json.RawMessage `json:"image_url"`
}

func (m *Message) parse(raw json.RawMessage, param string) *Error {
	if e := decode(raw, m, param); e != nil {
		return e
	}
	switch m.Role {
	case RoleSystem, RoleDeveloper, RoleUser, RoleAssistant, RoleTool:
	case "":
		return Invalid(param+".role", CodeMissing, "Missing required parameter: '%s.role'.", param)
	default:
		return Invalid(param+".role", CodeInvalidValue, "Invalid value: '%s'. Supported values are: 'system', 'developer', 'user', 'assistant' and 'tool'.", m.Role)
	}
	if m.ReasoningContent == "" {
		m.ReasoningContent = m.Reasoning
	}
	if e := m.parseContent(param + ".content"); e != nil {
		return e
	}
	if len(m.ToolCalls) > 0 && m.Role != RoleAssistant {
		return Invalid(param+".tool_calls", CodeInvalidValue, "Only assistant messages may hold tool_calls, not %s messages.", m.Role)
	}
	for i := range m.ToolCalls {
		if e := m.ToolCalls[i].validate(param, i); e != nil {
			return e
		}
	}
	if m.Role == RoleTool && m.ToolCallID == "" {
		return Invalid(param+".tool_call_id", CodeMissing, "Missing required parameter: '%s.tool_call_id'.", param)
	}
	return nil
}

func (m *Message) parseContent(param string) *Error {
	switch kind(m.ContentRaw) {
	case "null":
		if m.Role == RoleAssistant {
			return nil // an assistant turn that only calls tools
		}
		return Invalid(param, CodeMissing, "Missing required parameter: '%s'.", param)
	case "string":
		return decodeValue(m.ContentRaw, &m.Content, param)
	case "array":
	default:
		return Invalid(param, CodeInvalidType, "Invalid type for '%s': expected a string or an array of content parts.", param)
	}
	var parts []json.RawMessage
	if e := decodeValue(m.ContentRaw, &parts, param); e != nil {
		return e
	}
	texts := make([]string, 0, len(parts))
	for i, raw := range parts {
		p := param + "[" + strconv.Itoa(i) + "]"
		var cp contentPart
		if e := decode(raw, &cp, p); e != nil {
			return e
		}
		switch {
		case cp.Type == "text" && cp.Text != nil:
			texts = append(texts, *cp.Text)
		case cp.Type == "refusal" && cp.Refusal != nil:
			texts = append(texts, *cp.Refusal)
		case cp.Type == "text" || cp.Type == "refusal":
			return Invalid(p, CodeMissing, "Missing required parameter: '%s.%s'.", p, cp.Type)
		case cp.Type == "":
			return Invalid(p+".type", CodeMissing, "Missing required parameter: '%s.type'.", p)
		default:
			return Invalid(p+".type", CodeUnsupported, "Content parts of type '%s' are not supported: this server takes text only.", cp.Type)
		}
	}
	m.Content = strings.Join(texts, "\n")
	return nil
}
