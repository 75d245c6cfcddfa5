package sample

import (
	"math"
	"slices"
)

// TokenLogprob is a token id with its log-probability.
type TokenLogprob struct {
	ID      int32
	Logprob float32
}

// LogSumExp returns log Σ exp(logits[i]), ignoring NaN entries; -Inf for an
// empty slice or one without a value above -Inf. It takes two passes: the
// maximum, then the sum in float64 of expShift terms.
func LogSumExp(logits []float32) float64 {
	m := float64(maxOf(logits, float32(math.Inf(-1))))
	if math.IsInf(m, 0) {
		return m
	}
	return m + math.Log(sumExp(logits, m, 1))
}

// LogSoftmax writes log-softmax(logits) into dst, grown to len(logits), and
// returns it. NaN entries come out NaN, -Inf entries -Inf; when no entry is
// above -Inf there is no distribution and every entry is NaN.
func LogSoftmax(dst, logits []float32) []float32 {
	dst = slices.Grow(dst[:0], len(logits))[:len(logits)]
	lse := LogSumExp(logits)
	for i, x := range logits {
		dst[i] = float32(float64(x) - lse)
	}
	return dst
}

// logprobs returns the log-probability of token id under the softmax of
// logits and, appended to top[:0], the n most probable tokens, most probable
// first. scratch holds the selection.
func logprobs(logits []float32, id int32, n int, top []TokenLogprob, scratch []TokenLogit) (float32, []TokenLogprob, []TokenLogit) {
	lse := LogSumExp(logits)
	top = top[:0]
	if n > 0 {
		scratch = TopK(scratch, logits, n)
		for _, t := range scratch {
			top = append(top, TokenLogprob{ID: t.ID, Logprob: float32(float64(t.Logit) - lse)})
		}
	}
	return float32(float64(logits[id]) - lse), top, scratch
}
