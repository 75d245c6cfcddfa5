package openai

import (
	"encoding/json"
	"strings"
)

// Item types of the Responses and Conversations APIs that mlx handles.
const (
	ItemMessage            = "message"
	ItemFunctionCall       = "function_call"
	ItemFunctionCallOutput = "function_call_output"
	ItemReasoning          = "reasoning"
)

// Content part types.
const (
	PartInputText     = "input_text"
	PartOutputText    = "output_text"
	PartRefusal       = "refusal"
	PartReasoningText = "reasoning_text"
	PartSummaryText   = "summary_text"
)

// Item statuses.
const (
	ItemInProgress = "in_progress"
	ItemCompleted  = "completed"
	ItemIncomplete = "incomplete"
)

// Item is an input or output item of a response, or an item of a
// conversation: a message, a function call, a function call's output, or
// reasoning. Which fields matter depends on Type; MarshalJSON writes the
// fields of that type only.
type Item struct {
	ID     string
	Type   string
	Status string // "" is written as completed
	// Role and Content are a message's; Content also holds the
	// reasoning_text parts of reasoning.
	Role    string
	Content []Part
	// Summary holds the summary_text parts of reasoning.
	Summary []Part
	// CallID, Name and Arguments (JSON text) are a function call's; CallID
	// and Output a function call output's.
	CallID    string
	Name      string
	Arguments string
	// Output is the JSON of a function call output: a string or an array
	// of input_text parts.
	Output json.RawMessage
}

// Part is one content part: its type and text, with the log-probabilities
// of an output_text part.
type Part struct {
	Type     string
	Text     string
	Logprobs []Logprob // output_text only; nil is written as []
}

// Logprob is a token of output text with its log-probability and the
// most probable alternatives.
type Logprob struct {
	Token       string       `json:"token"`
	Bytes       []int        `json:"bytes"`
	Logprob     float64      `json:"logprob"`
	TopLogprobs []TopLogprob `json:"top_logprobs"`
}

// TopLogprob is an alternative token and its log-probability.
type TopLogprob struct {
	Token   string  `json:"token"`
	Bytes   []int   `json:"bytes"`
	Logprob float64 `json:"logprob"`
}

// Text returns the text of the parts, joined by newlines (as the text
// parts of a chat message are).
func Text(parts []Part) string {
	texts := make([]string, len(parts))
	for i, p := range parts {
		texts[i] = p.Text
	}
	return strings.Join(texts, "\n")
}

// MarshalJSON writes a part in the shape of its type.
func (p Part) MarshalJSON() ([]byte, error) {
	switch p.Type {
	case PartOutputText:
		lp := p.Logprobs
		if lp == nil {
			lp = []Logprob{}
		}
		return json.Marshal(struct {
			Type        string    `json:"type"`
			Text        string    `json:"text"`
			Annotations []any     `json:"annotations"`
			Logprobs    []Logprob `json:"logprobs"`
		}{p.Type, p.Text, []any{}, lp})
	case PartRefusal:
		return json.Marshal(struct {
			Type    string `json:"type"`
			Refusal string `json:"refusal"`
		}{p.Type, p.Text})
	}
	return json.Marshal(struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}{p.Type, p.Text})
}

// MarshalJSON writes an item in the shape of its type.
func (it Item) MarshalJSON() ([]byte, error) {
	status := it.Status
	if status == "" {
		status = ItemCompleted
	}
	parts := func(p []Part) []Part {
		if p == nil {
			return []Part{}
		}
		return p
	}
	switch it.Type {
	case ItemFunctionCall:
		return json.Marshal(struct {
			ID        string `json:"id"`
			Type      string `json:"type"`
			Status    string `json:"status"`
			CallID    string `json:"call_id"`
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		}{it.ID, it.Type, status, it.CallID, it.Name, it.Arguments})
	case ItemFunctionCallOutput:
		out := it.Output
		if len(out) == 0 {
			out = json.RawMessage(`""`)
		}
		return json.Marshal(struct {
			ID     string          `json:"id"`
			Type   string          `json:"type"`
			Status string          `json:"status"`
			CallID string          `json:"call_id"`
			Output json.RawMessage `json:"output"`
		}{it.ID, it.Type, status, it.CallID, out})
	case ItemReasoning:
		return json.Marshal(struct {
			ID      string `json:"id"`
			Type    string `json:"type"`
			Status  string `json:"status"`
			Summary []Part `json:"summary"`
			Content []Part `json:"content"`
		}{it.ID, it.Type, status, parts(it.Summary), parts(it.Content)})
	}
	return json.Marshal(struct {
		ID      string `json:"id"`
		Type    string `json:"type"`
		Status  string `json:"status"`
		Role    string `json:"role"`
		Content []Part `json:"content"`
	}{it.ID, ItemMessage, status, it.Role, parts(it.Content)})
}

// OutputText is the text of the output_text parts of a function call
// output or message; for a function call output it is the string output.
func (it *Item) OutputText() string {
	if it.Type != ItemFunctionCallOutput {
		return Text(it.Content)
	}
	var s string
	if json.Unmarshal(it.Output, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(it.Output, &parts) // validated when parsed
	texts := make([]string, len(parts))
	for i, p := range parts {
		texts[i] = p.Text
	}
	return strings.Join(texts, "\n")
}
