package openai

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// MaxItemIDLen bounds the length of an item id a client sends.
const MaxItemIDLen = 128

// itemWire is an item as a client sends it.
type itemWire struct {
	ID        *string         `json:"id"`
	Type      *string         `json:"type"`
	Status    *string         `json:"status"`
	Role      *string         `json:"role"`
	Content   json.RawMessage `json:"content"`
	Summary   json.RawMessage `json:"summary"`
	CallID    *string         `json:"call_id"`
	Name      *string         `json:"name"`
	Arguments *string         `json:"arguments"`
	Output    json.RawMessage `json:"output"`
}

// partWire is a content part as a client sends it.
type partWire struct {
	Type    *string `json:"type"`
	Text    *string `json:"text"`
	Refusal *string `json:"refusal"`
}

// unsupportedParts are content part types of the OpenAI API that this
// server does not take.
var unsupportedParts = []string{"input_image", "input_file", "input_audio", "computer_screenshot"}

// ParseItems reads a list of items, the field param of a request ("input",
// "items"). Item ids must be unique within the list.
func ParseItems(raw []json.RawMessage, param string) ([]Item, *Error) {
	items := make([]Item, 0, len(raw))
	seen := map[string]bool{}
	for i, r := range raw {
		p := fmt.Sprintf("%s[%d]", param, i)
		it, e := ParseItem(r, p)
		if e != nil {
			return nil, e
		}
		if it.ID != "" {
			if seen[it.ID] {
				return nil, Invalid(p+".id", CodeInvalidValue, "Duplicate item id '%s' in '%s'.", it.ID, param)
			}
			seen[it.ID] = true
		}
		items = append(items, it)
	}
	return items, nil
}

// parseInput reads the input of a response: a string, which is one user
// message, or an array of items.
func parseInput(raw json.RawMessage) ([]Item, *Error) {
	switch kind(raw) {
	case "string":
		var s string
		if e := decodeValue(raw, &s, "input"); e != nil {
			return nil, e
		}
		return []Item{{Type: ItemMessage, Role: RoleUser, Content: []Part{{Type: PartInputText, Text: s}}}}, nil
	case "array":
		var list []json.RawMessage
		if e := decodeValue(raw, &list, "input"); e != nil {
			return nil, e
		}
		return ParseItems(list, "input")
	}
	return nil, Invalid("input", CodeInvalidType, "Invalid type for 'input': expected a string or an array of input items.")
}

// ParseItem reads one item: a message (with or without "type"), a
// function call, a function call output or reasoning.
func ParseItem(raw json.RawMessage, p string) (Item, *Error) {
	var w itemWire
	if e := decode(raw, &w, p); e != nil {
		return Item{}, e
	}
	it := Item{ID: str(w.ID), Type: str(w.Type), Status: str(w.Status)}
	if it.Type == "" && w.Role != nil {
		it.Type = ItemMessage
	}
	if len(it.ID) > MaxItemIDLen {
		return Item{}, Invalid(p+".id", CodeInvalidValue, "'%s.id' is too long: %d characters, at most %d.", p, len(it.ID), MaxItemIDLen)
	}
	switch it.Status {
	case "", ItemInProgress, ItemCompleted, ItemIncomplete:
	default:
		return Item{}, Invalid(p+".status", CodeInvalidValue, "Invalid value: '%s'. Supported values are: 'in_progress', 'completed' and 'incomplete'.", it.Status)
	}
	var e *Error
	switch it.Type {
	case ItemMessage:
		e = it.parseMessage(&w, p)
	case ItemFunctionCall:
		e = it.parseCall(&w, p)
	case ItemFunctionCallOutput:
		e = it.parseCallOutput(&w, p)
	case ItemReasoning:
		e = it.parseReasoning(&w, p)
	case "":
		e = Invalid(p+".type", CodeMissing, "Missing required parameter: '%s.type'.", p)
	default:
		e = Invalid(p+".type", CodeUnsupported, "Items of type '%s' are not supported: this server takes 'message', 'function_call', 'function_call_output' and 'reasoning' items.", it.Type)
	}
	return it, e
}

func (it *Item) parseMessage(w *itemWire, p string) *Error {
	it.Role = str(w.Role)
	switch it.Role {
	case RoleUser, RoleSystem, RoleDeveloper, RoleAssistant:
	case "":
		return Invalid(p+".role", CodeMissing, "Missing required parameter: '%s.role'.", p)
	default:
		return Invalid(p+".role", CodeInvalidValue, "Invalid value: '%s'. Supported values are: 'user', 'system', 'developer' and 'assistant'.", it.Role)
	}
	textType := PartInputText
	if it.Role == RoleAssistant {
		textType = PartOutputText
	}
	switch kind(w.Content) {
	case "string":
		var s string
		if e := decodeValue(w.Content, &s, p+".content"); e != nil {
			return e
		}
		it.Content = []Part{{Type: textType, Text: s}}
		return nil
	case "null":
		return Invalid(p+".content", CodeMissing, "Missing required parameter: '%s.content'.", p)
	}
	parts, e := parseParts(w.Content, p+".content", PartInputText, PartOutputText, PartRefusal)
	it.Content = parts
	return e
}

func (it *Item) parseCall(w *itemWire, p string) *Error {
	for _, f := range []struct {
		name string
		v    *string
		dst  *string
	}{{"call_id", w.CallID, &it.CallID}, {"name", w.Name, &it.Name}, {"arguments", w.Arguments, &it.Arguments}} {
		if f.v == nil {
			return Invalid(p+"."+f.name, CodeMissing, "Missing required parameter: '%s.%s'.", p, f.name)
		}
		*f.dst = *f.v
	}
	// The name is not held to the pattern of declared tools: a model may
	// have called a function by any name, and its call comes back here.
	for _, f := range []struct{ name, v string }{{"call_id", it.CallID}, {"name", it.Name}} {
		if f.v == "" {
			return Invalid(p+"."+f.name, CodeInvalidValue, "'%s.%s' must not be empty.", p, f.name)
		}
	}
	return nil
}

func (it *Item) parseCallOutput(w *itemWire, p string) *Error {
	it.CallID = str(w.CallID)
	if it.CallID == "" {
		return Invalid(p+".call_id", CodeMissing, "Missing required parameter: '%s.call_id'.", p)
	}
	switch kind(w.Output) {
	case "string":
		it.Output = append(json.RawMessage(nil), w.Output...)
		return nil
	case "array":
		parts, e := parseParts(w.Output, p+".output", PartInputText)
		if e != nil {
			return e
		}
		b, err := json.Marshal(parts)
		if err != nil {
			return Invalid(p+".output", CodeInvalidValue, "Invalid value for '%s.output': %v.", p, err)
		}
		it.Output = b
		return nil
	case "null":
		return Invalid(p+".output", CodeMissing, "Missing required parameter: '%s.output'.", p)
	}
	return Invalid(p+".output", CodeInvalidType, "Invalid type for '%s.output': expected a string or an array of input_text parts.", p)
}

func (it *Item) parseReasoning(w *itemWire, p string) *Error {
	var e *Error
	if !isNull(w.Summary) {
		if it.Summary, e = parseParts(w.Summary, p+".summary", PartSummaryText); e != nil {
			return e
		}
	}
	if !isNull(w.Content) {
		it.Content, e = parseParts(w.Content, p+".content", PartReasoningText)
	}
	return e
}

// parseParts reads an array of content parts of the allowed types.
func parseParts(raw json.RawMessage, p string, allowed ...string) ([]Part, *Error) {
	if kind(raw) != "array" {
		return nil, Invalid(p, CodeInvalidType, "Invalid type for '%s': expected an array of content parts.", p)
	}
	var list []json.RawMessage
	if e := decodeValue(raw, &list, p); e != nil {
		return nil, e
	}
	parts := make([]Part, 0, len(list))
	for i, r := range list {
		pp := fmt.Sprintf("%s[%d]", p, i)
		var w partWire
		if e := decode(r, &w, pp); e != nil {
			return nil, e
		}
		typ := str(w.Type)
		text := w.Text
		if typ == PartRefusal {
			text = w.Refusal
		}
		switch {
		case typ == "":
			return nil, Invalid(pp+".type", CodeMissing, "Missing required parameter: '%s.type'.", pp)
		case slices.Contains(unsupportedParts, typ):
			return nil, Invalid(pp+".type", CodeUnsupported, "Content parts of type '%s' are not supported: this server takes text only.", typ)
		case !slices.Contains(allowed, typ):
			return nil, Invalid(pp+".type", CodeInvalidValue, "Invalid value: '%s'. Supported values are: %s.", typ, quoteList(allowed))
		case text == nil:
			field := "text"
			if typ == PartRefusal {
				field = "refusal"
			}
			return nil, Invalid(pp+"."+field, CodeMissing, "Missing required parameter: '%s.%s'.", pp, field)
		}
		parts = append(parts, Part{Type: typ, Text: *text})
	}
	return parts, nil
}

// quoteList writes 'a', 'b' and 'c'.
func quoteList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = "'" + v + "'"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
