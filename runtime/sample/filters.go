package sample

import (
	"math"
	"slices"
)

// The filters below work on a candidate list sorted by logit (largest first,
// ties by lower id, see before) and return a prefix of it, or a reordered and
// re-sorted subset for typical. Each keeps at least one candidate, the most
// likely one. Probabilities are the softmax of the candidates' logits at
// temperature 1, as in llama.cpp, where temperature comes last.

// weights sets w[i] = exp((c[i].Logit-c[0].Logit)*scale), grown to len(c),
// and returns it with its sum. c[0] holds the largest logit.
func weights(w []float64, c []TokenLogit, scale float64) ([]float64, float64) {
	w = slices.Grow(w[:0], len(c))[:len(c)]
	top := float64(c[0].Logit)
	total := 0.0
	for i, t := range c {
		w[i] = math.Exp((float64(t.Logit) - top) * scale)
		total += w[i]
	}
	return w, total
}

// nucleus returns the length of the shortest prefix of w whose sum reaches
// p*total, at least 1; len(w) when rounding keeps it below.
func nucleus(w []float64, total, p float64) int {
	target, cum := p*total, 0.0
	for i, x := range w {
		cum += x
		if cum >= target {
			return i + 1
		}
	}
	return len(w)
}

// topP keeps the smallest prefix whose probability reaches p.
func topP(c []TokenLogit, w []float64, p float64) ([]TokenLogit, []float64) {
	if p >= 1 || len(c) == 0 {
		return c, w
	}
	w, total := weights(w, c, 1)
	return c[:nucleus(w, total, p)], w
}

// minP keeps the candidates whose probability is at least p times the
// largest: logit ≥ max + ln p.
func minP(c []TokenLogit, p float64) []TokenLogit {
	if p <= 0 || len(c) == 0 {
		return c
	}
	thr := float64(c[0].Logit) + math.Log(p)
	n := 1
	for n < len(c) && float64(c[n].Logit) >= thr {
		n++
	}
	return c[:n]
}

// scored is a candidate with its typical-sampling score.
type scored struct {
	t     TokenLogit
	p     float64 // probability
	score float64 // |−log p − H|
}

// typical keeps the locally typical set (Meister et al. 2022): candidates
// ordered by how far their information −log p lies from the entropy H, the
// shortest such prefix whose probability reaches p, then sorted by logit
// again. buf and w are scratch.
func typical(c []TokenLogit, p float64, buf []scored, w []float64) ([]TokenLogit, []scored, []float64) {
	if p >= 1 || len(c) == 0 {
		return c, buf, w
	}
	w, total := weights(w, c, 1)
	h := 0.0
	for _, x := range w {
		if q := x / total; q > 0 {
			h -= q * math.Log(q)
		}
	}
	buf = slices.Grow(buf[:0], len(c))[:len(c)]
	for i, t := range c {
		q := w[i] / total
		buf[i] = scored{t: t, p: q, score: math.Abs(-math.Log(q) - h)}
	}
	// Stable: equal scores keep the logit order.
	slices.SortStableFunc(buf, func(a, b scored) int {
		switch {
		case a.score < b.score:
			return -1
		case a.score > b.score:
			return 1
		}
		return 0
	})
	n, cum := len(buf), 0.0
	for i, s := range buf {
		cum += s.p
		if cum >= p {
			n = i + 1
			break
		}
	}
	for i := range n {
		c[i] = buf[i].t
	}
	c = c[:n]
	sortLogits(c)
	return c, buf, w
}

// draw picks a candidate from the softmax of logit/temperature (scale is
// 1/temperature) with u uniform in [0, 1): the first whose cumulative weight
// exceeds u times the total.
func draw(c []TokenLogit, scale, u float64, w []float64) (int32, []float64) {
	w, total := weights(w, c, scale)
	target, cum := u*total, 0.0
	for i, x := range w {
		cum += x
		if cum > target {
			return c[i].ID, w
		}
	}
	return c[len(c)-1].ID, w
}
