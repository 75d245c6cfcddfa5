package server

import (
	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/server/openai"
)

// params builds the sampling parameters of a plan for a model: the
// model's defaults, then what the plan sets. Token ids are checked
// against the vocabulary; sample's own checks run last.
func params(p *plan, info ModelInfo) (sample.Params, error) {
	sp := modelDefaults(info)
	s := &p.sampling
	setF(&sp.Temperature, s.temperature)
	setTopP(&sp, s.topP)
	setF(&sp.PresencePenalty, s.presence)
	setF(&sp.FrequencyPenalty, s.frequency)
	setF(&sp.MinP, s.minP)
	setF(&sp.TypicalP, s.typicalP)
	setF(&sp.RepetitionPenalty, s.repetitionPenalty)
	if s.topK != nil {
		if err := checkTopK(*s.topK, info); err != nil {
			return sp, err
		}
		sp.TopK = max(*s.topK, 0)
	}
	if s.greedy {
		sp.Temperature = 0
	}
	if s.minTokens != nil {
		sp.MinTokens = *s.minTokens
	}
	sp.MaxTokens = s.maxTokens
	sp.IgnoreEOS, sp.IncludeStopStrInOutput = s.ignoreEOS, s.includeStop
	sp.Stop = s.stop
	sp.Logprobs, sp.TopLogprobs = p.logprobs, p.topLogprobs
	if s.seed != nil {
		seed := *s.seed
		sp.Seed = &seed
	}
	for _, id := range s.stopTokenIDs {
		if int(id) >= info.VocabSize {
			return sp, planErr(keyStopIDs, openai.CodeInvalidValue, "%s holds %d, outside the vocabulary of %d tokens.", paramKey(keyStopIDs), id, info.VocabSize)
		}
		sp.StopTokenIDs = append(sp.StopTokenIDs, id)
	}
	for id, v := range s.logitBias {
		if int(id) >= info.VocabSize {
			return sp, planErr(keyLogitBias, openai.CodeInvalidValue, "%s names token %d, outside the vocabulary of %d tokens.", paramKey(keyLogitBias), id, info.VocabSize)
		}
		if sp.LogitBias == nil {
			sp.LogitBias = map[int32]float64{}
		}
		sp.LogitBias[id] = v
	}
	if sp.MinTokens > 0 && sp.MaxTokens > 0 && sp.MinTokens > sp.MaxTokens {
		return sp, planErr(keyMinTokens, openai.CodeInvalidValue, "%s (%d) must not exceed %s (%d).", paramKey(keyMinTokens), sp.MinTokens, paramKey(keyMaxTokens), sp.MaxTokens)
	}
	if err := sp.Validate(); err != nil {
		return sp, err
	}
	return sp, nil
}

// modelDefaults are the sampling parameters of a request that sets none:
// the model's, or sample's when the model gave none.
func modelDefaults(info ModelInfo) sample.Params {
	p := info.Defaults
	if p.TopP == 0 && p.TypicalP == 0 && p.RepetitionPenalty == 0 {
		p = sample.Defaults()
	}
	p.Stop, p.StopTokenIDs, p.LogitBias, p.Seed = nil, nil, nil, nil
	return p
}

// checkTopK checks a top_k against the vocabulary.
func checkTopK(k int, info ModelInfo) error {
	if info.VocabSize > 0 && k > info.VocabSize {
		return planErr(keyTopK, openai.CodeInvalidValue, "%s must be at most the vocabulary's %d tokens, got %d.", paramKey(keyTopK), info.VocabSize, k)
	}
	return nil
}

func setF(dst *float64, v *float64) {
	if v != nil {
		*dst = *v
	}
}

// setTopP sets top_p when v is given. The chat and Messages APIs accept 0,
// meaning the most probable token only, which sample takes as greedy.
func setTopP(p *sample.Params, v *float64) {
	setF(&p.TopP, v)
	if v != nil && *v == 0 {
		p.TopP, p.Temperature = 1, 0
	}
}

// withSeed returns p for the i-th of several sequences: a set seed is
// offset by i so that the choices differ yet stay reproducible.
func withSeed(p sample.Params, i int) sample.Params {
	if p.Seed != nil && i > 0 {
		seed := *p.Seed + int64(i)
		p.Seed = &seed
	}
	return p
}
