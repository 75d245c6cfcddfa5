package runtime

import (
	"fmt"

	"github.com/mlxrun/mlx/runtime/sample"
)

// Limits and defaults of speculative decoding.
const (
	// MaxSpecTokens bounds the tokens proposed for one step of a sequence.
	MaxSpecTokens = 32
	// DefaultDraftTokens is num_assistant_tokens when neither the engine
	// options nor the request set it.
	DefaultDraftTokens = 5
	// DefaultDraftConfidence is assistant_confidence_threshold when the
	// request does not set it (as in Hugging Face transformers).
	DefaultDraftConfidence = 0.4
)

// SpecOptions configure speculative decoding: proposed tokens are checked
// by the model in one forward pass, and those it would have chosen itself
// are kept, so the output is the same as without speculation.
type SpecOptions struct {
	// Draft is the path of a small model (a .gguf file or a model
	// directory) with the model's vocabulary that proposes the tokens,
	// MTPDraft for the model's own multi-token prediction layer, "" for
	// none.
	Draft string
	// DraftTokens is how many tokens the draft model proposes per step
	// when a request does not say (num_assistant_tokens); 0 means
	// DefaultDraftTokens.
	DraftTokens int
	// Lookup is how many tokens prompt lookup proposes per step when a
	// request does not say (prompt_lookup_num_tokens): the tokens that
	// followed the latest earlier occurrence of the last few tokens in
	// the prompt and output. 0 leaves it off unless a request asks.
	Lookup int
}

// enabled reports whether requests speculate by default.
func (o SpecOptions) enabled() bool { return o.Draft != "" || o.Lookup > 0 }

// outRows returns how many logit rows a forward pass needs for parallel
// sequences that speculate by default (0 when none do).
func (o SpecOptions) outRows(parallel int) int {
	if !o.enabled() {
		return 0
	}
	k := max(o.Lookup, o.DraftTokens, DefaultDraftTokens)
	return parallel*(min(k, MaxSpecTokens)+1) + 1
}

// check refuses option values out of range.
func (o SpecOptions) check() error {
	if o.DraftTokens < 0 || o.DraftTokens > MaxSpecTokens || o.Lookup < 0 || o.Lookup > MaxSpecTokens {
		return fmt.Errorf("%w: draft tokens %d and lookup tokens %d must lie in 0…%d", ErrOptions, o.DraftTokens, o.Lookup, MaxSpecTokens)
	}
	return nil
}

// Speculation is what a request asks of speculative decoding, with the
// names of Hugging Face transformers; nil fields take the engine's
// defaults. Requests with a Constraint or a Beam search never speculate.
type Speculation struct {
	// DraftTokens is num_assistant_tokens: how many tokens the draft model
	// proposes per step, 0…MaxSpecTokens; 0 turns the draft model off.
	DraftTokens *int
	// Confidence is assistant_confidence_threshold, in [0, 1]: drafting
	// stops after a token the draft model gives a lower probability.
	Confidence *float64
	// LookupTokens is prompt_lookup_num_tokens: how many tokens prompt
	// lookup proposes per step, 0…MaxSpecTokens; 0 turns it off.
	LookupTokens *int
}

// SpecStats counts the tokens speculation proposed for a request and how
// many of them the model accepted.
type SpecStats struct {
	Proposed, Accepted int
}

// AcceptRate returns Accepted/Proposed (0 when nothing was proposed).
func (s SpecStats) AcceptRate() float64 {
	if s.Proposed == 0 {
		return 0
	}
	return float64(s.Accepted) / float64(s.Proposed)
}

// checkSpec validates the speculation fields of a request.
func (e *Engine) checkSpec(s Speculation) error {
	bad := func(param, format string, args ...any) error {
		return fmt.Errorf("%w: %w", ErrInvalidRequest, &sample.ParamError{Param: param, Msg: fmt.Sprintf(format, args...)})
	}
	for _, f := range []struct {
		name string
		v    *int
	}{{"num_assistant_tokens", s.DraftTokens}, {"prompt_lookup_num_tokens", s.LookupTokens}} {
		if f.v != nil && (*f.v < 0 || *f.v > MaxSpecTokens) {
			return bad(f.name, "must lie in 0…%d, got %d", MaxSpecTokens, *f.v)
		}
	}
	if c := s.Confidence; c != nil && !(*c >= 0 && *c <= 1) {
		return bad("assistant_confidence_threshold", "must lie in [0, 1], got %g", *c)
	}
	if s.DraftTokens != nil && *s.DraftTokens > 0 && e.spec.draft == nil && e.spec.mtp == nil {
		return bad("num_assistant_tokens", "no draft model is loaded: start with --draft MODEL (or --draft mtp)")
	}
	return nil
}

// specParams are the resolved speculation settings of one sequence.
type specParams struct {
	draft, lookup int
	confidence    float64
}

// specParamsOf resolves a request's speculation settings against the
// engine's options; all zero when the request may not speculate.
func (e *Engine) specParamsOf(req *Request) specParams {
	if req.Constraint != nil || req.Beam != nil {
		return specParams{}
	}
	p := specParams{lookup: e.opt.Spec.Lookup, confidence: DefaultDraftConfidence}
	if e.spec.draft != nil || e.spec.mtp != nil {
		p.draft = orDefault(e.opt.Spec.DraftTokens, DefaultDraftTokens)
	}
	s := req.Spec
	if s.DraftTokens != nil {
		p.draft = *s.DraftTokens
	}
	if s.LookupTokens != nil {
		p.lookup = *s.LookupTokens
	}
	if s.Confidence != nil {
		p.confidence = *s.Confidence
	}
	return p
}

// orDefault returns v, or def when v is 0.
func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
