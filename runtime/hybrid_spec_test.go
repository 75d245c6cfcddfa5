package runtime

import (
	"fmt"
	"slices"
	"testing"
)

// TestHybridSpeculation checks speculative decoding on a model whose
// linear-attention layers keep a recurrent state: prompt lookup and a
// draft model (the trained Qwen3 MoE, which shares the vocabulary)
// propose tokens the model partly rejects, and every stream gives the
// tokens and log-probabilities of plain decoding, alone and two at once
// in small batches: the state goes back over each rejected token.
func TestHybridSpeculation(t *testing.T) {
	var prompts []Request
	for _, p := range hybridPrompts(t) {
		if len(p.Prompt) > 0 && len(prompts) < 4 {
			p.Params.MaxTokens = 24
			prompts = append(prompts, p)
		}
	}
	plain := generateAll(loadWith(t, Options{}, "trained", "qwen3.5"), prompts)
	for _, tt := range []struct {
		name string
		opt  Options
	}{
		{"lookup", Options{Spec: SpecOptions{Lookup: 4}}},
		{"lookup, two at once", Options{Parallel: 2, Batch: 16, Spec: SpecOptions{Lookup: 4}}},
		{"draft model", Options{Parallel: 2, Spec: SpecOptions{Draft: fixturePath(t, "trained", "qwen3-moe"), DraftTokens: 4}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := loadWith(t, tt.opt, "trained", "qwen3.5")
			reqs := slices.Clone(prompts)
			for i := range reqs {
				reqs[i].Spec.Confidence = floatp(0)
			}
			var proposed, accepted int
			for i, o := range generateAll(e, reqs) {
				sameStream(t, fmt.Sprintf("prompt %d", i), o, plain[i])
				proposed += o.res.Spec.Proposed
				accepted += o.res.Spec.Accepted
			}
			t.Logf("%d of %d proposed tokens accepted", accepted, proposed)
			if accepted == 0 || accepted == proposed {
				t.Errorf("%d of %d proposed tokens accepted: the test needs some accepted and some rejected", accepted, proposed)
			}
		})
	}
}
