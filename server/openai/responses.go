package openai

import (
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// Limits of Responses API request values.
const (
	MaxMetadata        = 16  // metadata entries
	MaxMetadataKey     = 64  // characters of a metadata key
	MaxMetadataValue   = 512 // characters of a metadata value
	MaxIdentifierChars = 512 // user, safety_identifier, prompt_cache_key
)

// ResponseRequest is the body of POST /v1/responses. The extensions of
// Ext (top_k, min_p, ignore_eos, chat_template_kwargs, ...) are accepted as
// in chat completions.
type ResponseRequest struct {
	Ext
	Model              string            `json:"model"`
	InputRaw           json.RawMessage   `json:"input"`
	Instructions       *string           `json:"instructions"`
	ToolsRaw           []json.RawMessage `json:"tools"`
	ToolChoiceRaw      json.RawMessage   `json:"tool_choice"`
	ParallelToolCalls  *bool             `json:"parallel_tool_calls"`
	Text               *TextConfig       `json:"text"`
	Reasoning          *ReasoningConfig  `json:"reasoning"`
	ConversationRaw    json.RawMessage   `json:"conversation"`
	PreviousResponseID *string           `json:"previous_response_id"`
	Store              *bool             `json:"store"`
	Stream             *bool             `json:"stream"`
	StreamOptions      json.RawMessage   `json:"stream_options"`
	MaxOutputTokens    *int              `json:"max_output_tokens"`
	MaxToolCalls       *int              `json:"max_tool_calls"`
	Temperature        *float64          `json:"temperature"`
	TopP               *float64          `json:"top_p"`
	TopLogprobs        *int              `json:"top_logprobs"`
	Include            []string          `json:"include"`
	Metadata           map[string]string `json:"metadata"`
	PromptCacheKey     *string           `json:"prompt_cache_key"`
	User               *string           `json:"user"`
	SafetyIdentifier   *string           `json:"safety_identifier"`
	Background         *bool             `json:"background"`
	Truncation         *string           `json:"truncation"`
	ServiceTier        *string           `json:"service_tier"`
	Prompt             json.RawMessage   `json:"prompt"`

	// Filled by ParseResponseRequest.
	Input        []Item         `json:"-"`
	Tools        []FunctionTool `json:"-"`
	ToolChoice   ToolChoice     `json:"-"`
	Conversation string         `json:"-"` // the conversation id, "" when none
	Streamed     bool           `json:"-"`
	Stored       bool           `json:"-"` // store, true when unset
}

// Includables are the values of include; only message.output_text.logprobs
// changes what mlx returns.
var Includables = []string{
	"message.output_text.logprobs", "reasoning.encrypted_content", "file_search_call.results",
	"web_search_call.results", "web_search_call.action.sources", "message.input_image.image_url",
	"computer_call_output.output.image_url", "code_interpreter_call.outputs",
}

// IncludeLogprobs is the include value that asks for log-probabilities.
const IncludeLogprobs = "message.output_text.logprobs"

// ParseResponseRequest decodes and validates a Responses API body.
func ParseResponseRequest(body []byte) (*ResponseRequest, *Error) {
	r := &ResponseRequest{}
	if e := decode(body, r, ""); e != nil {
		return nil, e
	}
	if e := parseExt(body, &r.Ext); e != nil {
		return nil, e
	}
	r.Streamed, r.Stored = Flag(r.Stream, false), Flag(r.Store, true)
	for _, check := range []func() *Error{r.validateScalars, r.validateOptions, r.parseInputs, r.parseTools, r.Text.validate, r.Reasoning.validate} {
		if e := check(); e != nil {
			return nil, e
		}
	}
	return r, nil
}

// Logprobs reports whether the request asks for log-probabilities.
func (r *ResponseRequest) Logprobs() bool {
	return slices.Contains(r.Include, IncludeLogprobs) || (r.TopLogprobs != nil && *r.TopLogprobs > 0)
}

// TopLogprobCount returns top_logprobs, 0 when unset.
func (r *ResponseRequest) TopLogprobCount() int {
	if r.TopLogprobs == nil {
		return 0
	}
	return *r.TopLogprobs
}

// validateScalars checks the numbers and the model.
func (r *ResponseRequest) validateScalars() *Error {
	if r.Model == "" {
		return Invalid("model", CodeMissing, "Missing required parameter: 'model'.")
	}
	if r.MaxOutputTokens != nil && *r.MaxOutputTokens < 1 {
		return Invalid("max_output_tokens", CodeInvalidValue, "max_output_tokens must be at least 1, got %d.", *r.MaxOutputTokens)
	}
	if r.MaxToolCalls != nil && *r.MaxToolCalls < 0 {
		return Invalid("max_tool_calls", CodeInvalidValue, "max_tool_calls must be at least 0, got %d.", *r.MaxToolCalls)
	}
	if e := inSamplingRange("temperature", r.Temperature); e != nil {
		return e
	}
	if e := inSamplingRange("top_p", r.TopP); e != nil {
		return e
	}
	if r.TopLogprobs != nil && (*r.TopLogprobs < 0 || *r.TopLogprobs > MaxTopLogprobs) {
		return Invalid("top_logprobs", CodeInvalidValue, "top_logprobs must be between 0 and %d, got %d.", MaxTopLogprobs, *r.TopLogprobs)
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"user", r.User}, {"safety_identifier", r.SafetyIdentifier}, {"prompt_cache_key", r.PromptCacheKey}} {
		if f.v != nil && utf8.RuneCountInString(*f.v) > MaxIdentifierChars {
			return Invalid(f.name, CodeInvalidValue, "'%s' is too long: at most %d characters.", f.name, MaxIdentifierChars)
		}
	}
	return ValidateMetadata(r.Metadata, "metadata")
}

// validateOptions checks the options mlx does not support and those with
// a fixed set of values.
func (r *ResponseRequest) validateOptions() *Error {
	if Flag(r.Background, false) {
		return Invalid("background", CodeUnsupported, "Background responses are not supported: send the request without 'background', or stream it.")
	}
	if !isNull(r.Prompt) {
		return Invalid("prompt", CodeUnsupported, "Prompt templates are not supported: send 'input' and 'instructions'.")
	}
	if r.Truncation != nil && *r.Truncation != "disabled" {
		return Invalid("truncation", CodeUnsupported, "Invalid value: '%s'. Supported values are: 'disabled'.", *r.Truncation)
	}
	if r.ServiceTier != nil && !slices.Contains([]string{"auto", "default", "flex", "scale", "priority"}, *r.ServiceTier) {
		return Invalid("service_tier", CodeInvalidValue, "Invalid value: '%s'. Supported values are: 'auto', 'default', 'flex', 'scale' and 'priority'.", *r.ServiceTier)
	}
	if r.PromptLogprobs != nil {
		return Invalid("prompt_logprobs", CodeUnsupported, "prompt_logprobs is not supported on the Responses API: use chat completions or completions.")
	}
	if !isNull(r.StreamOptions) && !r.Streamed {
		return Invalid("stream_options", CodeInvalidValue, "The 'stream_options' parameter is only allowed when 'stream' is enabled.")
	}
	for _, inc := range r.Include {
		if !slices.Contains(Includables, inc) {
			return Invalid("include", CodeInvalidValue, "Invalid value: '%s'. Supported values are: %s.", inc, quoteList(Includables))
		}
	}
	return nil
}

// parseInputs reads input, conversation and previous_response_id.
func (r *ResponseRequest) parseInputs() *Error {
	conv, e := parseConversationRef(r.ConversationRaw)
	if e != nil {
		return e
	}
	r.Conversation = conv
	prev := str(r.PreviousResponseID)
	if prev != "" && conv != "" {
		return Invalid("previous_response_id", CodeInvalidValue, "'previous_response_id' and 'conversation' cannot both be set: a response continues either one.")
	}
	if isNull(r.InputRaw) {
		if prev == "" && conv == "" {
			return Invalid("input", CodeMissing, "Missing required parameter: 'input'.")
		}
		return nil
	}
	r.Input, e = parseInput(r.InputRaw)
	return e
}

// parseConversationRef reads conversation: an id, or {"id": ...}.
func parseConversationRef(raw json.RawMessage) (string, *Error) {
	var id string
	switch kind(raw) {
	case "null":
		return "", nil
	case "string":
		if e := decodeValue(raw, &id, "conversation"); e != nil {
			return "", e
		}
	case "object":
		var ref struct {
			ID string `json:"id"`
		}
		if e := decode(raw, &ref, "conversation"); e != nil {
			return "", e
		}
		id = ref.ID
	default:
		return "", Invalid("conversation", CodeInvalidType, "Invalid type for 'conversation': expected a conversation id or an object with an 'id'.")
	}
	if id == "" {
		return "", Invalid("conversation", CodeInvalidValue, "'conversation' must name a conversation id.")
	}
	return id, nil
}

// ValidateMetadata checks a metadata map: at most MaxMetadata entries,
// keys of at most MaxMetadataKey characters, values of at most
// MaxMetadataValue.
func ValidateMetadata(m map[string]string, param string) *Error {
	if len(m) > MaxMetadata {
		return Invalid(param, CodeInvalidValue, "'%s' may hold at most %d entries, got %d.", param, MaxMetadata, len(m))
	}
	for k, v := range m {
		if utf8.RuneCountInString(k) > MaxMetadataKey {
			return Invalid(param, CodeInvalidValue, "Invalid '%s': the key %q is longer than %d characters.", param, k, MaxMetadataKey)
		}
		if utf8.RuneCountInString(v) > MaxMetadataValue {
			return Invalid(param, CodeInvalidValue, "Invalid '%s': the value of %q is longer than %d characters.", param, k, MaxMetadataValue)
		}
	}
	return nil
}
