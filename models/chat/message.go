package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/mlxrun/mlx/models/chat/jinja"
)

// Message is one message of a conversation, in the OpenAI shape. A
// message parsed from JSON reaches the template with its keys in their
// order, and its other keys (Extra) as they were.
type Message struct {
	Role             string
	Content          Content
	ReasoningContent string
	ToolCalls        []ToolCall
	ToolCallID       string
	Name             string
	Extra            map[string]json.RawMessage
	order            []string
}

// Content is a message's content: text, a list of parts, or null.
type Content struct {
	Text  string
	Parts []json.RawMessage // JSON objects such as {"type": "text", "text": "..."}
	Null  bool
}

// Text returns text content.
func Text(s string) Content { return Content{Text: s} }

// ToolCall is a call the assistant made.
type ToolCall struct {
	ID       string
	Type     string // "function" when empty
	Function FunctionCall
	order    []string
}

// FunctionCall names the function and its arguments: a JSON object, or a
// JSON string holding the arguments as text (as the OpenAI API sends them).
type FunctionCall struct {
	Name      string
	Arguments json.RawMessage
	order     []string
}

// InOrder returns msg with the keys a template sees in the order given,
// as for a message parsed from JSON with its keys in that order; keys
// that are not set are left out, and keys set but not named follow.
func (msg Message) InOrder(keys ...string) Message {
	msg.order = keys
	return msg
}

// ParseMessages parses a JSON array of messages.
func ParseMessages(data []byte) ([]Message, error) {
	var msgs []Message
	if err := json.Unmarshal(data, &msgs); err != nil {
		return nil, fmt.Errorf("%w: messages: %w", ErrInput, err)
	}
	return msgs, nil
}

// objectKeys returns the keys of a JSON object in order, and its members.
func objectKeys(data []byte) ([]string, map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, nil, err
	}
	if m == nil {
		return nil, nil, fmt.Errorf("expected a JSON object, got null")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	keys := make([]string, 0, len(m))
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := t.(string)
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, nil, err
		}
	}
	return keys, m, nil
}

func unmarshalField(m map[string]json.RawMessage, key string, dst any) error {
	raw, ok := m[key]
	if !ok || string(raw) == "null" {
		return nil
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	return nil
}

// UnmarshalJSON reads a message, keeping its key order and other keys.
func (msg *Message) UnmarshalJSON(data []byte) error {
	keys, m, err := objectKeys(data)
	if err != nil {
		return fmt.Errorf("message: %w", err)
	}
	*msg = Message{order: keys}
	if raw, ok := m["content"]; ok {
		if err := json.Unmarshal(raw, &msg.Content); err != nil {
			return fmt.Errorf("content: %w", err)
		}
		delete(m, "content")
	}
	for _, f := range []struct {
		key string
		dst any
	}{{"role", &msg.Role}, {"reasoning_content", &msg.ReasoningContent},
		{"tool_calls", &msg.ToolCalls}, {"tool_call_id", &msg.ToolCallID}, {"name", &msg.Name}} {
		if raw, ok := m[f.key]; ok && string(bytes.TrimSpace(raw)) == "null" {
			continue // kept in Extra: the template sees None
		}
		if err := unmarshalField(m, f.key, f.dst); err != nil {
			return err
		}
		delete(m, f.key)
	}
	if len(m) > 0 {
		msg.Extra = m
	}
	return nil
}

// UnmarshalJSON reads text, a list of parts, or null.
func (c *Content) UnmarshalJSON(data []byte) error {
	*c = Content{}
	switch t := bytes.TrimSpace(data); {
	case string(t) == "null":
		c.Null = true
		return nil
	case len(t) > 0 && t[0] == '[':
		if err := json.Unmarshal(t, &c.Parts); err != nil {
			return err
		}
		if c.Parts == nil {
			c.Parts = []json.RawMessage{}
		}
		return nil
	}
	if err := json.Unmarshal(data, &c.Text); err != nil {
		return fmt.Errorf("content must be a string, a list of parts or null")
	}
	return nil
}

// UnmarshalJSON reads a tool call, keeping its key order.
func (tc *ToolCall) UnmarshalJSON(data []byte) error {
	keys, m, err := objectKeys(data)
	if err != nil {
		return fmt.Errorf("tool call: %w", err)
	}
	*tc = ToolCall{order: keys}
	if err := unmarshalField(m, "id", &tc.ID); err != nil {
		return err
	}
	if err := unmarshalField(m, "type", &tc.Type); err != nil {
		return err
	}
	return unmarshalField(m, "function", &tc.Function)
}

// UnmarshalJSON reads a function call, keeping its key order.
func (fc *FunctionCall) UnmarshalJSON(data []byte) error {
	keys, m, err := objectKeys(data)
	if err != nil {
		return fmt.Errorf("function: %w", err)
	}
	*fc = FunctionCall{order: keys, Arguments: m["arguments"]}
	return unmarshalField(m, "name", &fc.Name)
}

// keyOrder is the parsed order, then any other key that is set.
func keyOrder(parsed []string, set []string) []string {
	out := append([]string(nil), parsed...)
	seen := make(map[string]bool, len(out))
	for _, k := range out {
		seen[k] = true
	}
	for _, k := range set {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

func (msg *Message) value() (jinja.Value, error) {
	var set []string
	for _, f := range []struct {
		k  string
		on bool
	}{{"role", true}, {"content", true}, {"reasoning_content", msg.ReasoningContent != ""},
		{"tool_calls", len(msg.ToolCalls) > 0}, {"tool_call_id", msg.ToolCallID != ""}, {"name", msg.Name != ""}} {
		if f.on {
			set = append(set, f.k)
		}
	}
	extra := make([]string, 0, len(msg.Extra))
	for k := range msg.Extra {
		extra = append(extra, k)
	}
	sort.Strings(extra)
	d := jinja.NewDict()
	for _, k := range keyOrder(msg.order, append(set, extra...)) {
		v, err := msg.field(k)
		if err != nil {
			return jinja.Value{}, fmt.Errorf("%s: %w", k, err)
		}
		d.Set(k, v)
	}
	return d.Value(), nil
}

// field is the template value of one key; other keys (and known keys
// parsed as null) come from Extra.
func (msg *Message) field(k string) (jinja.Value, error) {
	if raw, ok := msg.Extra[k]; ok {
		return jinja.FromJSON(raw)
	}
	switch k {
	case "role":
		return jinja.String(msg.Role), nil
	case "content":
		return msg.Content.value()
	case "reasoning_content":
		return jinja.String(msg.ReasoningContent), nil
	case "tool_calls":
		return toolCallsValue(msg.ToolCalls)
	case "tool_call_id":
		return jinja.String(msg.ToolCallID), nil
	case "name":
		return jinja.String(msg.Name), nil
	}
	return jinja.None(), nil
}

func (c Content) value() (jinja.Value, error) {
	switch {
	case c.Parts != nil:
		return rawList(c.Parts)
	case c.Null:
		return jinja.None(), nil
	}
	return jinja.String(c.Text), nil
}

func toolCallsValue(calls []ToolCall) (jinja.Value, error) {
	items := make([]jinja.Value, len(calls))
	for i, tc := range calls {
		typ := tc.Type
		if typ == "" {
			typ = "function"
		}
		set := []string{"type", "function"}
		if tc.ID != "" {
			set = []string{"id", "type", "function"}
		}
		fn, err := tc.Function.value()
		if err != nil {
			return jinja.Value{}, fmt.Errorf("tool call %d: %w", i, err)
		}
		d := jinja.NewDict()
		for _, k := range keyOrder(tc.order, set) {
			switch k {
			case "id":
				d.Set(k, jinja.String(tc.ID))
			case "type":
				d.Set(k, jinja.String(typ))
			case "function":
				d.Set(k, fn)
			}
		}
		items[i] = d.Value()
	}
	return jinja.List(items...), nil
}

func (fc FunctionCall) value() (jinja.Value, error) {
	args := jinja.NewDict().Value()
	if fc.Arguments != nil {
		var err error
		if args, err = jinja.FromJSON(fc.Arguments); err != nil {
			return jinja.Value{}, fmt.Errorf("arguments: %w", err)
		}
	}
	d := jinja.NewDict()
	for _, k := range keyOrder(fc.order, []string{"name", "arguments"}) {
		switch k {
		case "name":
			d.Set(k, jinja.String(fc.Name))
		case "arguments":
			d.Set(k, args)
		}
	}
	return d.Value(), nil
}
