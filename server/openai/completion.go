package openai

import (
	"encoding/json"
	"fmt"
)

// MaxPrompts bounds the prompts of one completions request.
const MaxPrompts = 64

// CompletionRequest is the body of POST /v1/completions.
type CompletionRequest struct {
	Sampling
	Ext
	PromptRaw json.RawMessage `json:"prompt"`
	Echo      bool            `json:"echo"`
	Logprobs  *int            `json:"logprobs"`
	BestOf    *int            `json:"best_of"`
	// Suffix is the text after the completion: the request fills in the
	// middle, between the prompt and it.
	Suffix *string `json:"suffix"`
	// ResponseFormat constrains the text as in chat completions (an
	// extension: OpenAI's completions have none).
	ResponseFormat *ResponseFormat `json:"response_format"`
	BeamParams

	// Prompts is the prompt, as texts or as token ids (filled by
	// ParseCompletion): exactly one of Text and IDs is set in each.
	Prompts []Prompt `json:"-"`
}

// Prompt is one prompt of a completions request.
type Prompt struct {
	Text  string
	IDs   []int32 // set when the prompt was given as token ids
	Param string  // how errors name it: "prompt" or "prompt[i]"
}

// BestOfCount returns best_of, n when unset.
func (r *CompletionRequest) BestOfCount() int {
	if r.BestOf == nil {
		return r.Choices()
	}
	return *r.BestOf
}

// ParseCompletion decodes and validates a completions body.
func ParseCompletion(body []byte) (*CompletionRequest, *Error) {
	r := &CompletionRequest{}
	if e := parseBase(body, r, &r.Sampling, &r.Ext); e != nil {
		return nil, e
	}
	if r.ChatTemplate != nil {
		return nil, Invalid("chat_template", CodeUnsupported, "chat_template applies to chat completions and responses: /v1/completions takes the prompt as it is.")
	}
	if r.Suffix != nil && *r.Suffix != "" && r.Echo {
		return nil, Invalid("echo", CodeUnsupported, "echo cannot be used with suffix: the prompt of a fill-in-the-middle completion is not the text given.")
	}
	if r.Logprobs != nil && (*r.Logprobs < 0 || *r.Logprobs > MaxCompLogprob) {
		return nil, Invalid("logprobs", CodeInvalidValue, "logprobs must be between 0 and %d, got %d.", MaxCompLogprob, *r.Logprobs)
	}
	if r.BestOf != nil {
		switch {
		case *r.BestOf < 1 || *r.BestOf > MaxBestOf:
			return nil, Invalid("best_of", CodeInvalidValue, "best_of must be between 1 and %d, got %d.", MaxBestOf, *r.BestOf)
		case *r.BestOf < r.Choices():
			return nil, Invalid("best_of", CodeInvalidValue, "best_of must be at least n (%d), got %d.", r.Choices(), *r.BestOf)
		case *r.BestOf > r.Choices() && r.Stream:
			return nil, Invalid("best_of", CodeInvalidValue, "best_of cannot be used with stream: the best choices are known only at the end.")
		}
	}
	if e := r.validateBeam(r.BestOfCount(), r.Stream); e != nil {
		return nil, e
	}
	if e := r.ResponseFormat.validate(); e != nil {
		return nil, e
	}
	if e := r.checkPromptLogprobs(r.Stream); e != nil {
		return nil, e
	}
	prompts, e := parsePrompt(r.PromptRaw)
	if e != nil {
		return nil, e
	}
	if len(prompts)*r.BestOfCount() > MaxN {
		return nil, Invalid("n", CodeInvalidValue, "%d prompts × %d choices is more than the %d sequences one request may run.", len(prompts), r.BestOfCount(), MaxN)
	}
	r.Prompts = prompts
	return r, nil
}

// parsePrompt reads a prompt: a string, an array of strings, an array of
// token ids or an array of arrays of token ids.
func parsePrompt(raw json.RawMessage) ([]Prompt, *Error) {
	return parseTexts(raw, "prompt", MaxPrompts)
}

// parseTexts reads the parameter param that holds texts the way prompt
// does, at most limit of them.
func parseTexts(raw json.RawMessage, param string, limit int) ([]Prompt, *Error) {
	switch kind(raw) {
	case "null":
		return nil, Invalid(param, CodeMissing, "Missing required parameter: '%s'.", param)
	case "string":
		var s string
		if e := decodeValue(raw, &s, param); e != nil {
			return nil, e
		}
		return []Prompt{{Text: s, Param: param}}, nil
	case "array":
	default:
		return nil, Invalid(param, CodeInvalidType, "%s must be a string, an array of strings, an array of token ids or an array of arrays of token ids.", param)
	}
	var items []json.RawMessage
	if e := decodeValue(raw, &items, param); e != nil {
		return nil, e
	}
	if len(items) == 0 {
		return nil, Invalid(param, CodeInvalidValue, "%s must not be empty.", param)
	}
	if kind(items[0]) == "number" {
		var ids []int32
		if e := decodeValue(raw, &ids, param); e != nil {
			return nil, e
		}
		return []Prompt{{IDs: ids, Param: param}}, nil
	}
	if len(items) > limit {
		return nil, Invalid(param, CodeInvalidValue, "%s may hold at most %d inputs, got %d.", param, limit, len(items))
	}
	out := make([]Prompt, len(items))
	for i, it := range items {
		p := fmt.Sprintf("%s[%d]", param, i)
		out[i].Param = p
		switch kind(it) {
		case "string":
			if e := decodeValue(it, &out[i].Text, p); e != nil {
				return nil, e
			}
		case "array":
			if e := decodeValue(it, &out[i].IDs, p); e != nil {
				return nil, e
			}
			if len(out[i].IDs) == 0 {
				return nil, Invalid(p, CodeInvalidValue, "%s must not be empty.", p)
			}
		default:
			return nil, Invalid(p, CodeInvalidType, "%s must be a string or an array of token ids.", p)
		}
	}
	return out, nil
}

// DefaultCompletionTokens is max_tokens of a completion that sets none, as
// at OpenAI.
const DefaultCompletionTokens = 16

// Limit returns max_tokens, DefaultCompletionTokens when unset.
func (r *CompletionRequest) Limit() int {
	if r.MaxTokens == nil {
		return DefaultCompletionTokens
	}
	return *r.MaxTokens
}
