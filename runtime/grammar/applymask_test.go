package grammar

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestApplyMask compares the word-wise masking of logits with a bit by
// bit one, on full, empty and mixed words and a vocabulary shorter than
// the logits.
func TestApplyMask(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name          string
		tokens, extra int
		fill          func(i int) uint64
	}{
		{"mixed", 300, 0, func(int) uint64 { return rng.Uint64() }},
		{"full and empty", 256, 0, func(i int) uint64 { return []uint64{0, ^uint64(0)}[i%2] }},
		{"logits past the vocabulary", 130, 6, func(int) uint64 { return ^uint64(0) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bits := make([]uint64, (tt.tokens+63)/64)
			for i := range bits {
				bits[i] = tt.fill(i)
			}
			if r := tt.tokens % 64; r != 0 {
				bits[len(bits)-1] &= 1<<r - 1
			}
			logits := make([]float32, tt.tokens+tt.extra)
			applyMask(logits, bits, tt.tokens)
			for i, l := range logits {
				want := i < tt.tokens && bits[i>>6]&(1<<(i&63)) != 0
				if got := !math.IsInf(float64(l), -1); got != want {
					t.Fatalf("logit %d kept %v, want %v", i, got, want)
				}
			}
		})
	}
}

// BenchmarkApplyMask measures the masking of a Qwen3-sized logit vector
// with few tokens allowed (between members), nearly all (in a string,
// about 3% refused here and there) and all, against a bit by bit loop.
func BenchmarkApplyMask(b *testing.B) {
	const n = 151936
	logits := make([]float32, n)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name string
		bit  func() bool
	}{
		{"few", func() bool { return rng.IntN(1000) == 0 }},
		{"string", func() bool { return rng.IntN(100) >= 3 }},
		{"all", func() bool { return true }},
	} {
		bits := make([]uint64, (n+63)/64)
		for i := range n {
			if tc.bit() {
				bits[i>>6] |= 1 << (i & 63)
			}
		}
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				applyMask(logits, bits, n)
			}
		})
		b.Run(tc.name+"/bitwise", func(b *testing.B) {
			inf := float32(math.Inf(-1))
			for b.Loop() {
				for i := range logits {
					if bits[i>>6]&(1<<(i&63)) == 0 {
						logits[i] = inf
					}
				}
			}
		})
	}
}
