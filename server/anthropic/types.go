package anthropic

import (
	"encoding/json"
	"strings"
)

// Roles of messages.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Content block types.
const (
	BlockText             = "text"
	BlockImage            = "image"
	BlockDocument         = "document"
	BlockToolUse          = "tool_use"
	BlockToolResult       = "tool_result"
	BlockThinking         = "thinking"
	BlockRedactedThinking = "redacted_thinking"
)

// Tool choice types.
const (
	ChoiceAuto = "auto"
	ChoiceAny  = "any"
	ChoiceTool = "tool"
	ChoiceNone = "none"
)

// Stop reasons of a message.
const (
	StopEndTurn      = "end_turn"
	StopMaxTokens    = "max_tokens"
	StopSequence     = "stop_sequence"
	StopToolUse      = "tool_use"
	ObjectMessage    = "message"
	ThinkingEnabled  = "enabled"
	ThinkingDisabled = "disabled"
)

// Request is the body of POST /v1/messages (and, without max_tokens, of
// /v1/messages/count_tokens).
type Request struct {
	Model         string          `json:"model"`
	MaxTokens     int             `json:"max_tokens"`
	System        Content         `json:"system"`
	Messages      []Message       `json:"messages"`
	Tools         []Tool          `json:"tools"`
	ToolChoice    *ToolChoice     `json:"tool_choice"`
	StopSequences []string        `json:"stop_sequences"`
	Stream        bool            `json:"stream"`
	Temperature   *float64        `json:"temperature"`
	TopP          *float64        `json:"top_p"`
	TopK          *int            `json:"top_k"`
	Metadata      json.RawMessage `json:"metadata"`
	Thinking      *Thinking       `json:"thinking"`
}

// Message is one turn of the conversation.
type Message struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// Content is a string or a list of content blocks; a string is one text
// block.
type Content []Block

// UnmarshalJSON takes a string or an array of blocks.
func (c *Content) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*c = Content{{Type: BlockText, Text: s}}
		return nil
	}
	var blocks []Block
	if err := json.Unmarshal(b, &blocks); err != nil {
		return &fieldError{"content", "must be a string or an array of content blocks"}
	}
	*c = blocks
	return nil
}

// Text joins the text of the text blocks, one per line.
func (c Content) Text() string {
	var parts []string
	for _, b := range c {
		if b.Type == BlockText && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Block is a content block of a request or a response.
type Block struct {
	Type string `json:"type"`
	// text
	Text string `json:"text,omitempty"`
	// tool_use
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// tool_result
	ToolUseID string   `json:"tool_use_id,omitempty"`
	Content   *Content `json:"content,omitempty"`
	IsError   bool     `json:"is_error,omitempty"`
	// thinking
	Thinking  *string `json:"thinking,omitempty"`
	Signature *string `json:"signature,omitempty"`
}

// Tool is a tool the model may call.
type Tool struct {
	Type        string          `json:"type,omitempty"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// ToolChoice says whether and which tools the model must call.
type ToolChoice struct {
	Type                   string `json:"type"`
	Name                   string `json:"name,omitempty"`
	DisableParallelToolUse bool   `json:"disable_parallel_tool_use,omitempty"`
}

// Thinking turns extended thinking on (with a token budget) or off.
type Thinking struct {
	Type         string `json:"type"`
	BudgetTokens int    `json:"budget_tokens,omitempty"`
}

// Usage counts the tokens of a message: InputTokens leaves out those read
// from the prompt cache, which CacheReadInputTokens counts.
type Usage struct {
	InputTokens          int `json:"input_tokens"`
	OutputTokens         int `json:"output_tokens"`
	CacheReadInputTokens int `json:"cache_read_input_tokens"`
}

// Response is the message of a reply.
type Response struct {
	ID           string  `json:"id"`
	Type         string  `json:"type"`
	Role         string  `json:"role"`
	Model        string  `json:"model"`
	Content      []any   `json:"content"` // TextBlock, ThinkingBlock, ToolUseBlock
	StopReason   *string `json:"stop_reason"`
	StopSequence *string `json:"stop_sequence"`
	Usage        Usage   `json:"usage"`
}

// TokenCount is the answer of /v1/messages/count_tokens.
type TokenCount struct {
	InputTokens int `json:"input_tokens"`
}
