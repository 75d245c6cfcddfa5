package kernels

import (
	"math"
	"testing"
)

// TestAddIsPlainSum checks Add bit for bit against the element sum on
// lengths with and without vector tails, and that it stops at len(dst).
func TestAddIsPlainSum(t *testing.T) {
	rng := newRand(21)
	for _, n := range []int{0, 1, 7, 8, 9, 31, 32, 33, 768, 775} {
		x := randFloats(rng, n+3, 100)
		dst := randFloats(rng, n, 1)
		want := make([]float32, n)
		for i := range want {
			want[i] = dst[i] + x[i]
		}
		Add(dst, x)
		for i := range want {
			if math.Float32bits(dst[i]) != math.Float32bits(want[i]) {
				t.Fatalf("n=%d: Add[%d] = %v, want %v", n, i, dst[i], want[i])
			}
		}
	}
}

// BenchmarkAdd times the residual add of one BERT-base row.
func BenchmarkAdd(b *testing.B) {
	rng := newRand(22)
	x, dst := randFloats(rng, 768, 1), randFloats(rng, 768, 1)
	b.SetBytes(4 * 768)
	b.ReportAllocs()
	for b.Loop() {
		Add(dst, x)
	}
}
