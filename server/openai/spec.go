package openai

// MaxSpecTokens bounds num_assistant_tokens and prompt_lookup_num_tokens.
const MaxSpecTokens = 32

// Spec holds the speculative decoding fields of Hugging Face transformers
// that mlx accepts as extensions: how many tokens a draft model proposes
// per step and when it stops, and how many tokens prompt lookup proposes.
// Constrained requests (response_format, grammar, forced tools) do not
// speculate.
type Spec struct {
	NumAssistantTokens           *int     `json:"num_assistant_tokens"`
	AssistantConfidenceThreshold *float64 `json:"assistant_confidence_threshold"`
	PromptLookupNumTokens        *int     `json:"prompt_lookup_num_tokens"`
}

func (s *Spec) validate() *Error {
	for _, f := range []struct {
		name string
		v    *int
	}{{"num_assistant_tokens", s.NumAssistantTokens}, {"prompt_lookup_num_tokens", s.PromptLookupNumTokens}} {
		if f.v != nil && (*f.v < 0 || *f.v > MaxSpecTokens) {
			return Invalid(f.name, CodeInvalidValue, "%s must be between 0 (off) and %d, got %d.", f.name, MaxSpecTokens, *f.v)
		}
	}
	return inRange("assistant_confidence_threshold", s.AssistantConfidenceThreshold, 0, 1)
}
