package openai

import (
	"encoding/json"
	"fmt"
)

// ChatRequest is the body of POST /v1/chat/completions.
type ChatRequest struct {
	Sampling
	Ext
	MessagesRaw         []json.RawMessage `json:"messages"`
	MaxCompletionTokens *int              `json:"max_completion_tokens"`
	Logprobs            bool              `json:"logprobs"`
	TopLogprobs         *int              `json:"top_logprobs"`
	ResponseFormat      *ResponseFormat   `json:"response_format"`
	Tools               []Tool            `json:"tools"`
	ToolChoiceRaw       json.RawMessage   `json:"tool_choice"`
	ParallelToolCalls   *bool             `json:"parallel_tool_calls"`
	// ReasoningEffort is one of ReasoningEfforts (see ReasoningConfig).
	ReasoningEffort *string `json:"reasoning_effort"`
	// BestOf is the beam width of a beam search (an extension, as OVMS);
	// n when unset.
	BestOf *int `json:"best_of"`
	BeamParams

	// Filled by ParseChat.
	Messages   []Message  `json:"-"`
	ToolChoice ToolChoice `json:"-"`
}

// Limit returns the most tokens to generate: max_completion_tokens, else
// max_tokens, else 0 (no limit but the context).
func (r *ChatRequest) Limit() int {
	switch {
	case r.MaxCompletionTokens != nil:
		return *r.MaxCompletionTokens
	case r.MaxTokens != nil:
		return *r.MaxTokens
	}
	return 0
}

// TopLogprobCount returns top_logprobs, 0 when unset.
func (r *ChatRequest) TopLogprobCount() int {
	if r.TopLogprobs == nil {
		return 0
	}
	return *r.TopLogprobs
}

// ParseChat decodes and validates a chat completions body.
func ParseChat(body []byte) (*ChatRequest, *Error) {
	r := &ChatRequest{}
	if e := parseBase(body, r, &r.Sampling, &r.Ext); e != nil {
		return nil, e
	}
	if r.MaxCompletionTokens != nil && *r.MaxCompletionTokens < 1 {
		return nil, Invalid("max_completion_tokens", CodeInvalidValue, "max_completion_tokens must be at least 1, got %d.", *r.MaxCompletionTokens)
	}
	if e := r.validateLogprobs(); e != nil {
		return nil, e
	}
	if e := r.validateBestOf(); e != nil {
		return nil, e
	}
	if e := r.checkPromptLogprobs(r.Stream); e != nil {
		return nil, e
	}
	if e := r.parseMessages(); e != nil {
		return nil, e
	}
	if e := validateEffort("reasoning_effort", r.ReasoningEffort); e != nil {
		return nil, e
	}
	if e := r.ResponseFormat.validate(); e != nil {
		return nil, e
	}
	if e := validateTools(r.Tools); e != nil {
		return nil, e
	}
	tc, e := parseToolChoice(r.ToolChoiceRaw, r.Tools)
	if e != nil {
		return nil, e
	}
	r.ToolChoice = tc
	return r, nil
}

// BeamWidth returns best_of, n when unset.
func (r *ChatRequest) BeamWidth() int {
	if r.BestOf == nil {
		return r.Choices()
	}
	return *r.BestOf
}

func (r *ChatRequest) validateBestOf() *Error {
	if r.BestOf != nil {
		switch {
		case !r.Beam():
			return Invalid("best_of", CodeUnsupported, "best_of on chat completions is the beam width of use_beam_search; set use_beam_search, or use n.")
		case *r.BestOf < 1 || *r.BestOf > MaxBestOf:
			return Invalid("best_of", CodeInvalidValue, "best_of must be between 1 and %d, got %d.", MaxBestOf, *r.BestOf)
		case *r.BestOf < r.Choices():
			return Invalid("best_of", CodeInvalidValue, "best_of must be at least n (%d), got %d.", r.Choices(), *r.BestOf)
		}
	}
	return r.validateBeam(r.BeamWidth(), r.Stream)
}

func (r *ChatRequest) validateLogprobs() *Error {
	if r.TopLogprobs == nil {
		return nil
	}
	if *r.TopLogprobs < 0 || *r.TopLogprobs > MaxTopLogprobs {
		return Invalid("top_logprobs", CodeInvalidValue, "top_logprobs must be between 0 and %d, got %d.", MaxTopLogprobs, *r.TopLogprobs)
	}
	if !r.Logprobs && *r.TopLogprobs > 0 {
		return Invalid("top_logprobs", CodeInvalidValue, "top_logprobs requires logprobs to be true.")
	}
	return nil
}

func (r *ChatRequest) parseMessages() *Error {
	if len(r.MessagesRaw) == 0 {
		if r.MessagesRaw == nil {
			return Invalid("messages", CodeMissing, "Missing required parameter: 'messages'.")
		}
		return Invalid("messages", CodeInvalidValue, "'messages' must hold at least one message.")
	}
	r.Messages = make([]Message, len(r.MessagesRaw))
	for i, raw := range r.MessagesRaw {
		if e := r.Messages[i].parse(raw, fmt.Sprintf("messages[%d]", i)); e != nil {
			return e
		}
	}
	last := r.Messages[len(r.Messages)-1]
	if Flag(r.ContinueFinalMessage, false) {
		if last.Role != RoleAssistant {
			return Invalid("continue_final_message", CodeInvalidValue, "continue_final_message needs the last message to be from the assistant, not %q.", last.Role)
		}
		if Flag(r.AddGenerationPrompt, false) {
			return Invalid("continue_final_message", CodeInvalidValue, "continue_final_message and add_generation_prompt cannot both be true.")
		}
	}
	return nil
}
