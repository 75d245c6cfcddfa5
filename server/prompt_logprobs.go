package server

import (
	"context"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/openai"
)

// checkScorer refuses prompt_logprobs on a model that cannot score a
// prompt.
func checkScorer(m Model, k *int) error {
	if _, ok := m.(Scorer); k != nil && !ok {
		return planErr(keyPromptLP, openai.CodeUnsupported, "%s is not supported by this model: it cannot score prompts.", paramKey(keyPromptLP))
	}
	return nil
}

// scorePrompt returns the log-probabilities of the tokens of a prompt,
// with top alternatives each: entry i is for ids[i], the first is nil.
// All are nil when m is no Scorer.
func scorePrompt(ctx context.Context, m Model, ids []int32, top int) ([]*runtime.Logprob, error) {
	out := make([]*runtime.Logprob, len(ids))
	sc, ok := m.(Scorer)
	if !ok || len(ids) < 2 {
		return out, nil
	}
	lps, err := sc.PromptLogprobs(ctx, ids, top)
	if err != nil {
		return nil, err
	}
	for k := range lps {
		if k+1 < len(out) {
			out[k+1] = &lps[k]
		}
	}
	return out, nil
}

// trimTop returns lps with at most k alternatives each.
func trimTop(lps []*runtime.Logprob, k int) []*runtime.Logprob {
	out := make([]*runtime.Logprob, len(lps))
	for i, lp := range lps {
		if lp != nil {
			cp := *lp
			cp.Top = cp.Top[:min(k, len(cp.Top))]
			out[i] = &cp
		}
	}
	return out
}

// promptLogprobs converts scored prompt tokens to vLLM's prompt_logprobs:
// each entry holds the token and its top most probable alternatives.
func (t *tokenTexts) promptLogprobs(lps []*runtime.Logprob, top int) openai.PromptLogprobs {
	out := make(openai.PromptLogprobs, len(lps))
	for i, lp := range lps {
		if lp == nil {
			continue // null: nothing predicts the first token
		}
		e := make(map[int32]openai.PromptLogprob, top+1)
		var own *int
		for r, alt := range lp.Top {
			rank := r + 1
			if alt.ID == lp.ID {
				own = &rank
			}
			if r < top {
				e[alt.ID] = openai.PromptLogprob{Logprob: finite(alt.Logprob), Rank: &rank, DecodedToken: t.text(alt.ID)}
			}
		}
		e[lp.ID] = openai.PromptLogprob{Logprob: finite(lp.Logprob), Rank: own, DecodedToken: t.text(lp.ID)}
		out[i] = e
	}
	return out
}
