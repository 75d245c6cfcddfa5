package anthropic

import "encoding/json"

// Event names of a streamed message, in the order they come.
const (
	EventMessageStart      = "message_start"
	EventPing              = "ping"
	EventContentBlockStart = "content_block_start"
	EventContentBlockDelta = "content_block_delta"
	EventContentBlockStop  = "content_block_stop"
	EventMessageDelta      = "message_delta"
	EventMessageStop       = "message_stop"
	EventError             = "error"
)

// TextBlock is a text block of a reply.
type TextBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// ThinkingBlock is the model's reasoning. This server signs nothing: the
// signature is empty.
type ThinkingBlock struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
}

// ToolUseBlock is a tool call of a reply; Input is a JSON object.
type ToolUseBlock struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// MessageStart opens a stream with the message, its content still empty.
type MessageStart struct {
	Type    string   `json:"type"`
	Message Response `json:"message"`
}

// Ping is a keep-alive event.
type Ping struct {
	Type string `json:"type"`
}

// ContentBlockStart opens content block Index.
type ContentBlockStart struct {
	Type         string `json:"type"`
	Index        int    `json:"index"`
	ContentBlock any    `json:"content_block"`
}

// ContentBlockDelta adds to content block Index.
type ContentBlockDelta struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
	Delta any    `json:"delta"` // TextDelta, ThinkingDelta, InputJSONDelta
}

// TextDelta adds text to a text block.
type TextDelta struct {
	Type string `json:"type"` // text_delta
	Text string `json:"text"`
}

// ThinkingDelta adds reasoning to a thinking block.
type ThinkingDelta struct {
	Type     string `json:"type"` // thinking_delta
	Thinking string `json:"thinking"`
}

// InputJSONDelta adds a piece of a tool_use block's input JSON.
type InputJSONDelta struct {
	Type        string `json:"type"` // input_json_delta
	PartialJSON string `json:"partial_json"`
}

// ContentBlockStop closes content block Index.
type ContentBlockStop struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
}

// MessageDelta carries the stop reason and the final usage.
type MessageDelta struct {
	Type  string    `json:"type"`
	Delta StopDelta `json:"delta"`
	Usage Usage     `json:"usage"`
}

// StopDelta is why the message ended.
type StopDelta struct {
	StopReason   *string `json:"stop_reason"`
	StopSequence *string `json:"stop_sequence"`
}

// MessageStop ends a stream.
type MessageStop struct {
	Type string `json:"type"`
}
