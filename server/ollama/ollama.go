// Package ollama holds the wire types of Ollama's native API (/api/chat,
// /api/generate, /api/tags, ...) and decodes its requests, with the
// bounds and errors every request gets.
package ollama

import (
	"encoding/json"
	"time"
)

// Message is a chat message.
type Message struct {
	Role      string     `json:"role"`
	Content   string     `json:"content"`
	Thinking  string     `json:"thinking,omitempty"`
	Images    []string   `json:"images,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	ToolName  string     `json:"tool_name,omitempty"`
}

// ToolCall is a call of a tool by the assistant: the arguments are a
// JSON object, not JSON text.
type ToolCall struct {
	Function ToolCallFunction `json:"function"`
}

// ToolCallFunction is the function of a tool call.
type ToolCallFunction struct {
	Index     int            `json:"index,omitempty"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// Tool is a declared tool.
type Tool struct {
	Type     string       `json:"type"`
	Function ToolFunction `json:"function"`
}

// ToolFunction is the function a tool declares.
type ToolFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// Options are the model options of a request that the server honours;
// Ollama's others are accepted and ignored.
type Options struct {
	NumCtx           *int     `json:"num_ctx"`
	NumPredict       *int     `json:"num_predict"`
	Temperature      *float64 `json:"temperature"`
	TopK             *int     `json:"top_k"`
	TopP             *float64 `json:"top_p"`
	MinP             *float64 `json:"min_p"`
	TypicalP         *float64 `json:"typical_p"`
	RepeatPenalty    *float64 `json:"repeat_penalty"`
	PresencePenalty  *float64 `json:"presence_penalty"`
	FrequencyPenalty *float64 `json:"frequency_penalty"`
	Seed             *int64   `json:"seed"`
	Stop             []string `json:"stop"`
}

// Common are the fields /api/chat and /api/generate share.
type Common struct {
	Model     string          `json:"model"`
	Format    json.RawMessage `json:"format,omitempty"`
	Options   Options         `json:"options"`
	Stream    *bool           `json:"stream,omitempty"`
	KeepAlive json.RawMessage `json:"keep_alive,omitempty"`
	Think     json.RawMessage `json:"think,omitempty"`
}

// ChatRequest is the body of POST /api/chat.
type ChatRequest struct {
	Common
	Messages []Message `json:"messages"`
	Tools    []Tool    `json:"tools,omitempty"`
}

// GenerateRequest is the body of POST /api/generate.
type GenerateRequest struct {
	Common
	Prompt   string   `json:"prompt"`
	Suffix   string   `json:"suffix,omitempty"`
	System   string   `json:"system,omitempty"`
	Template string   `json:"template,omitempty"`
	Raw      bool     `json:"raw,omitempty"`
	Images   []string `json:"images,omitempty"`
	Context  []int    `json:"context,omitempty"`
}

// Metrics are the counts and durations (nanoseconds) of the final
// object of a generation.
type Metrics struct {
	TotalDuration      int64 `json:"total_duration,omitempty"`
	LoadDuration       int64 `json:"load_duration,omitempty"`
	PromptEvalCount    int   `json:"prompt_eval_count,omitempty"`
	PromptEvalDuration int64 `json:"prompt_eval_duration,omitempty"`
	EvalCount          int   `json:"eval_count,omitempty"`
	EvalDuration       int64 `json:"eval_duration,omitempty"`
}

// ChatResponse is one object of a /api/chat stream, or its whole answer.
type ChatResponse struct {
	Model      string    `json:"model"`
	CreatedAt  time.Time `json:"created_at"`
	Message    Message   `json:"message"`
	Done       bool      `json:"done"`
	DoneReason string    `json:"done_reason,omitempty"`
	Metrics
}

// GenerateResponse is one object of a /api/generate stream, or its whole
// answer.
type GenerateResponse struct {
	Model      string    `json:"model"`
	CreatedAt  time.Time `json:"created_at"`
	Response   string    `json:"response"`
	Thinking   string    `json:"thinking,omitempty"`
	Done       bool      `json:"done"`
	DoneReason string    `json:"done_reason,omitempty"`
	Metrics
}

// ErrorBody is the body of every error: {"error": "..."}.
type ErrorBody struct {
	Error string `json:"error"`
}
