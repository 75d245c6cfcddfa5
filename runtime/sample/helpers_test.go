package sample

import (
	"math"
	"math/rand/v2"
	"testing"
)

// logitsOf returns log(p) for each p: logits whose softmax is p when p sums to 1.
func logitsOf(p ...float64) []float32 {
	l := make([]float32, len(p))
	for i, x := range p {
		l[i] = float32(math.Log(x))
	}
	return l
}

// randomLogits returns n logits shaped like a language model's: a normal
// bulk with a few strong candidates, from a fixed seed.
func randomLogits(n int, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 1))
	l := make([]float32, n)
	for i := range l {
		l[i] = float32(r.NormFloat64() * 2)
	}
	for range 8 {
		l[r.IntN(n)] = float32(12 + 4*r.Float64())
	}
	return l
}

// refLogSoftmax is log-softmax in float64, the reference for the float32 code.
func refLogSoftmax(l []float32) []float64 {
	m := math.Inf(-1)
	for _, x := range l {
		m = math.Max(m, float64(x))
	}
	s := 0.0
	for _, x := range l {
		s += math.Exp(float64(x) - m)
	}
	out := make([]float64, len(l))
	for i, x := range l {
		out[i] = float64(x) - m - math.Log(s)
	}
	return out
}

// ids returns the ids of c.
func ids(c []TokenLogit) []int32 {
	out := make([]int32, len(c))
	for i, t := range c {
		out[i] = t.ID
	}
	return out
}

// newSampler returns a sampler or fails the test.
func newSampler(t testing.TB, p Params, vocab int, eos ...int32) *Sampler {
	t.Helper()
	s, err := New(p, vocab, eos)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return s
}

// seed returns a pointer to v, for Params.Seed.
func seed(v int64) *int64 { return &v }
