package sample

import (
	"fmt"
	"math"
)

// choose runs the filters on patched logits: greedy, or top_k → typical_p →
// top_p → min_p → temperature → a draw from the seeded generator.
func (s *Sampler) choose(logits []float32) (int32, error) {
	p := s.p
	if p.Temperature > 0 && p.TopK > 0 {
		// The selection finds the maximum too: no separate pass.
		c := TopK(s.cand[:0], logits, p.TopK)
		s.cand = c
		if len(c) == 0 {
			return 0, errNoLogit
		}
		if err := checkMax(int(c[0].ID), c[0].Logit); err != nil {
			return 0, err
		}
		return s.filter(c, false), nil
	}
	at := argmax(logits)
	if at < 0 {
		return 0, errNoLogit
	}
	m := logits[at]
	if err := checkMax(at, m); err != nil {
		return 0, err
	}
	switch {
	case p.Temperature == 0:
		return int32(at), nil
	case p.TypicalP < 1:
		s.cand = above(s.cand, logits, -math.MaxFloat32, &s.keys)
	case p.TopP < 1:
		s.ensureProbs()
		s.cand, s.w = nucleusCut(s.cand, s.w, s.probs, logits, m, p.TopP, &s.keys)
		return s.filter(s.cand, true), nil
	case p.MinP > 0:
		s.cand = above(s.cand, logits, m+float32(math.Log(p.MinP)), &s.keys)
	default:
		s.ensureProbs()
		var id int32
		id, s.sums = drawVocab(s.probs, s.sums, logits, m, 1/p.Temperature, s.rng.Float64())
		return id, nil
	}
	return s.filter(s.cand, false), nil
}

var errNoLogit = fmt.Errorf("%w: no logit above -Inf", ErrLogits)

// checkMax refuses a +Inf maximum, which leaves no distribution.
func checkMax(at int, m float32) error {
	if math.IsInf(float64(m), 1) {
		return fmt.Errorf("%w: logit of token %d is +Inf", ErrLogits, at)
	}
	return nil
}

// filter applies typical_p, top_p (unless nucleusDone) and min_p to the
// sorted candidates c, then draws at the temperature.
func (s *Sampler) filter(c []TokenLogit, nucleusDone bool) int32 {
	p := s.p
	c, s.typ, s.w = typical(c, p.TypicalP, s.typ, s.w)
	if !nucleusDone {
		c, s.w = topP(c, s.w, p.TopP)
	}
	c = minP(c, p.MinP)
	var id int32
	id, s.w = draw(c, 1/p.Temperature, s.rng.Float64(), s.w)
	return id
}

func (s *Sampler) ensureProbs() {
	if s.probs == nil {
		s.probs = make([]float32, s.vocab)
	}
}
