package openai

import (
	"encoding/json"
)

// Annotation kinds of the "annotations" extension.
const (
	AnnotationTiming   = "timing"
	AnnotationTokenIDs = "token_ids"
)

// Ext holds the extensions of vLLM, SGLang and NVIDIA NIM that mlx
// accepts at the top level of a request and inside "nvext".
type Ext struct {
	Spec
	TopK                   *int            `json:"top_k"`
	MinP                   *float64        `json:"min_p"`
	TypicalP               *float64        `json:"typical_p"`
	RepetitionPenalty      *float64        `json:"repetition_penalty"`
	IgnoreEOS              *bool           `json:"ignore_eos"`
	GreedySampling         *bool           `json:"greedy_sampling"`
	UseRawPrompt           *bool           `json:"use_raw_prompt"`
	MinTokens              *int            `json:"min_tokens"`
	StopTokenIDs           []int32         `json:"stop_token_ids"`
	IncludeStopStrInOutput *bool           `json:"include_stop_str_in_output"`
	SkipSpecialTokens      *bool           `json:"skip_special_tokens"`
	ChatTemplate           *string         `json:"chat_template"` // a Jinja chat template that replaces the model's
	ChatTemplateKwargs     map[string]any  `json:"chat_template_kwargs"`
	AddGenerationPrompt    *bool           `json:"add_generation_prompt"`
	ContinueFinalMessage   *bool           `json:"continue_final_message"`
	TruncatePromptTokens   *int            `json:"truncate_prompt_tokens"`
	Annotations            []string        `json:"annotations"`
	SeparateReasoning      *bool           `json:"separate_reasoning"`
	Grammar                *string         `json:"grammar"` // GBNF the output must match (start rule root)
	PromptLogprobs         *int            `json:"prompt_logprobs"`
	NVExt                  json.RawMessage `json:"nvext"`
	extra                  map[string]bool // annotations as a set
}

// extOnly decodes only the extension fields of a body.
type extOnly struct {
	Ext
}

// parseExt reads the extensions of body: those inside "nvext", overridden
// by those at the top level.
func parseExt(body []byte, top *Ext) *Error {
	if isNull(top.NVExt) {
		return top.validate()
	}
	var merged extOnly
	if e := decode(top.NVExt, &merged, "nvext"); e != nil {
		return e
	}
	if e := decode(body, &merged, ""); e != nil {
		return e
	}
	*top = merged.Ext
	return top.validate()
}

func (x *Ext) validate() *Error {
	if x.TopK != nil && *x.TopK < -1 {
		return Invalid("top_k", CodeInvalidValue, "top_k must be -1 (disabled), 0 (disabled) or positive, got %d.", *x.TopK)
	}
	if v, ok := x.ChatTemplateKwargs["enable_thinking"]; ok && v != nil {
		if _, isBool := v.(bool); !isBool {
			return Invalid("chat_template_kwargs.enable_thinking", CodeInvalidType, "chat_template_kwargs.enable_thinking must be a boolean.")
		}
	}
	if e := inSamplingRange("min_p", x.MinP); e != nil {
		return e
	}
	if e := inSamplingRange("typical_p", x.TypicalP); e != nil {
		return e
	}
	if x.TypicalP != nil && *x.TypicalP == 0 {
		return Invalid("typical_p", CodeInvalidValue, "typical_p must be in (0, 1], got 0.")
	}
	if x.RepetitionPenalty != nil && !(*x.RepetitionPenalty > 0 && *x.RepetitionPenalty <= 10) {
		return Invalid("repetition_penalty", CodeInvalidValue, "repetition_penalty must be in (0, 10], got %g.", *x.RepetitionPenalty)
	}
	if x.MinTokens != nil && *x.MinTokens < 0 {
		return Invalid("min_tokens", CodeInvalidValue, "min_tokens must be at least 0, got %d.", *x.MinTokens)
	}
	if len(x.StopTokenIDs) > MaxStopIDs {
		return Invalid("stop_token_ids", CodeInvalidValue, "stop_token_ids may hold at most %d ids, got %d.", MaxStopIDs, len(x.StopTokenIDs))
	}
	for _, id := range x.StopTokenIDs {
		if id < 0 {
			return Invalid("stop_token_ids", CodeInvalidValue, "stop_token_ids holds %d, not a token id.", id)
		}
	}
	if x.TruncatePromptTokens != nil && *x.TruncatePromptTokens < 1 && *x.TruncatePromptTokens != -1 {
		return Invalid("truncate_prompt_tokens", CodeInvalidValue, "truncate_prompt_tokens must be -1 or at least 1, got %d.", *x.TruncatePromptTokens)
	}
	if x.PromptLogprobs != nil && (*x.PromptLogprobs < 0 || *x.PromptLogprobs > MaxTopLogprobs) {
		return Invalid("prompt_logprobs", CodeInvalidValue, "prompt_logprobs must be between 0 and %d, got %d.", MaxTopLogprobs, *x.PromptLogprobs)
	}
	if x.ChatTemplate != nil && *x.ChatTemplate == "" {
		return Invalid("chat_template", CodeInvalidValue, "chat_template must not be empty: give a Jinja chat template, or leave it out to use the model's.")
	}
	if x.Grammar != nil && *x.Grammar == "" {
		return Invalid("grammar", CodeInvalidValue, "grammar must not be empty: give GBNF rules with a root rule, or leave it out.")
	}
	if e := x.Spec.validate(); e != nil {
		return e
	}
	x.extra = map[string]bool{}
	for _, a := range x.Annotations {
		if a != AnnotationTiming && a != AnnotationTokenIDs {
			return Invalid("annotations", CodeInvalidValue, "Unknown annotation %q: use %q or %q.", a, AnnotationTiming, AnnotationTokenIDs)
		}
		x.extra[a] = true
	}
	return nil
}

// Annotate reports whether the request asked for annotation kind a.
func (x *Ext) Annotate(a string) bool { return x.extra[a] }

// Flag returns *b, or def when b is nil.
func Flag(b *bool, def bool) bool {
	if b == nil {
		return def
	}
	return *b
}

// checkPromptLogprobs refuses prompt_logprobs on a stream: they come with
// the whole response only (as in vLLM).
func (x *Ext) checkPromptLogprobs(stream bool) *Error {
	if x.PromptLogprobs != nil && stream {
		return Invalid("prompt_logprobs", CodeUnsupported, "prompt_logprobs cannot be used with stream: send the request without 'stream'.")
	}
	return nil
}
