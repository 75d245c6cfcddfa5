package openai

// Object names of the Responses and Conversations APIs.
const (
	ObjectResponse            = "response"
	ObjectConversation        = "conversation"
	ObjectConversationDeleted = "conversation.deleted"
)

// Response statuses.
const (
	StatusInProgress = "in_progress"
	StatusCompleted  = "completed"
	StatusIncomplete = "incomplete"
	StatusFailed     = "failed"
	StatusCancelled  = "cancelled"
)

// Response is the object of the Responses API, whole or as a stream's
// snapshot. Pointers are null when unset.
type Response struct {
	ID                 string             `json:"id"`
	Object             string             `json:"object"`
	CreatedAt          int64              `json:"created_at"`
	Status             string             `json:"status"`
	Background         bool               `json:"background"`
	CompletedAt        *int64             `json:"completed_at"`
	Error              *ResponseError     `json:"error"`
	IncompleteDetails  *IncompleteDetails `json:"incomplete_details"`
	Instructions       *string            `json:"instructions"`
	MaxOutputTokens    *int               `json:"max_output_tokens"`
	MaxToolCalls       *int               `json:"max_tool_calls"`
	Model              string             `json:"model"`
	Output             []Item             `json:"output"`
	OutputText         string             `json:"output_text"`
	ParallelToolCalls  bool               `json:"parallel_tool_calls"`
	PreviousResponseID *string            `json:"previous_response_id"`
	Conversation       *ConversationRef   `json:"conversation"`
	PromptCacheKey     *string            `json:"prompt_cache_key"`
	Reasoning          ReasoningConfig    `json:"reasoning"`
	SafetyIdentifier   *string            `json:"safety_identifier"`
	ServiceTier        string             `json:"service_tier"`
	Store              bool               `json:"store"`
	Temperature        *float64           `json:"temperature"`
	Text               TextConfig         `json:"text"`
	ToolChoice         any                `json:"tool_choice"`
	Tools              []FunctionTool     `json:"tools"`
	TopLogprobs        int                `json:"top_logprobs"`
	TopP               *float64           `json:"top_p"`
	Truncation         string             `json:"truncation"`
	Usage              *ResponseUsage     `json:"usage"`
	User               *string            `json:"user"`
	Metadata           map[string]string  `json:"metadata"`
}

// ResponseError is why a response failed.
type ResponseError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// IncompleteDetails say why a response is incomplete.
type IncompleteDetails struct {
	Reason string `json:"reason"`
}

// ConversationRef names the conversation of a response.
type ConversationRef struct {
	ID string `json:"id"`
}

// ResponseUsage counts the tokens of a response.
type ResponseUsage struct {
	InputTokens         int                `json:"input_tokens"`
	InputTokensDetails  InputTokensDetails `json:"input_tokens_details"`
	OutputTokens        int                `json:"output_tokens"`
	OutputTokensDetails OutputTokenDetails `json:"output_tokens_details"`
	TotalTokens         int                `json:"total_tokens"`
}

// InputTokensDetails details the input tokens.
type InputTokensDetails struct {
	CachedTokens int `json:"cached_tokens"`
}

// OutputTokenDetails details the output tokens.
type OutputTokenDetails struct {
	ReasoningTokens int `json:"reasoning_tokens"`
}

// Deleted is the body of a successful DELETE.
type Deleted struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Deleted bool   `json:"deleted"`
}

// Conversation is the object of the Conversations API.
type Conversation struct {
	ID        string            `json:"id"`
	Object    string            `json:"object"`
	CreatedAt int64             `json:"created_at"`
	Metadata  map[string]string `json:"metadata"`
}

// ObjectInputTokens is the object of an input token count.
const ObjectInputTokens = "response.input_tokens"

// InputTokens is the body of POST /v1/responses/input_tokens: how many
// tokens the request's input renders to.
type InputTokens struct {
	Object      string `json:"object"`
	InputTokens int    `json:"input_tokens"`
}
