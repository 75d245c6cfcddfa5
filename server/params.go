package server

import (
	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/server/openai"
)

// sampling is what params needs of a request.
type sampling struct {
	common      *openai.Sampling
	ext         *openai.Ext
	maxTokens   int
	logprobs    bool
	topLogprobs int
}

// params builds the sampling parameters of a request for a model: the
// model's defaults, then what the request sets. Token ids are checked
// against the vocabulary; sample's own checks run last.
func params(s sampling, info ModelInfo) (sample.Params, error) {
	p := modelDefaults(info)
	c, x := s.common, s.ext
	setF(&p.Temperature, c.Temperature)
	setTopP(&p, c.TopP)
	setF(&p.PresencePenalty, c.PresencePenalty)
	setF(&p.FrequencyPenalty, c.FrequencyPenalty)
	setF(&p.MinP, x.MinP)
	setF(&p.TypicalP, x.TypicalP)
	setF(&p.RepetitionPenalty, x.RepetitionPenalty)
	if x.TopK != nil {
		if err := checkTopK(*x.TopK, info); err != nil {
			return p, err
		}
		p.TopK = max(*x.TopK, 0)
	}
	if openai.Flag(x.GreedySampling, false) {
		p.Temperature = 0
	}
	if x.MinTokens != nil {
		p.MinTokens = *x.MinTokens
	}
	p.MaxTokens = s.maxTokens
	p.IgnoreEOS = openai.Flag(x.IgnoreEOS, false)
	p.IncludeStopStrInOutput = openai.Flag(x.IncludeStopStrInOutput, false)
	p.Stop = c.Stop
	p.Logprobs, p.TopLogprobs = s.logprobs, s.topLogprobs
	if c.Seed != nil {
		seed := *c.Seed
		p.Seed = &seed
	}
	for _, id := range x.StopTokenIDs {
		if int(id) >= info.VocabSize {
			return p, openai.Invalid("stop_token_ids", openai.CodeInvalidValue, "stop_token_ids holds %d, outside the vocabulary of %d tokens.", id, info.VocabSize)
		}
		p.StopTokenIDs = append(p.StopTokenIDs, id)
	}
	for id, v := range c.LogitBias {
		if int(id) >= info.VocabSize {
			return p, openai.Invalid("logit_bias", openai.CodeInvalidValue, "logit_bias names token %d, outside the vocabulary of %d tokens.", id, info.VocabSize)
		}
		if p.LogitBias == nil {
			p.LogitBias = map[int32]float64{}
		}
		p.LogitBias[id] = v
	}
	if p.MinTokens > 0 && p.MaxTokens > 0 && p.MinTokens > p.MaxTokens {
		return p, openai.Invalid("min_tokens", openai.CodeInvalidValue, "min_tokens (%d) must not exceed max_tokens (%d).", p.MinTokens, p.MaxTokens)
	}
	if err := p.Validate(); err != nil {
		return p, err
	}
	return p, nil
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
		return openai.Invalid("top_k", openai.CodeInvalidValue, "top_k must be at most the vocabulary's %d tokens, got %d.", info.VocabSize, k)
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
