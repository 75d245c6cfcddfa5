package kernels

import (
	"fmt"
	"testing"
)

// BenchmarkHalfActs measures an F16 matmul of a decode step (one
// activation row) and of a short prefill, with and without rounding the
// activations to halves first (HalfActs).
func BenchmarkHalfActs(b *testing.B) {
	rng := newRand(25)
	const rows, cols = 2048, 1024
	w := randomMatrix(b, rng, F16, rows, cols)
	p := NewPool(2)
	defer p.Close()
	for _, n := range []int{1, 16} {
		x := randFloats(rng, n*cols, 1)
		out := make([]float32, n*rows)
		for _, round := range []bool{false, true} {
			m := *w
			m.HalfActs = round
			b.Run(fmt.Sprintf("n=%d/halfActs=%v", n, round), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(rows * cols * 2))
				for b.Loop() {
					p.MatMul(&m, x, n, out)
				}
			})
		}
	}
}

// BenchmarkRoundHalf measures the rounding of one activation row of 1024
// values, the cost HalfActs adds to each matmul per activation row.
func BenchmarkRoundHalf(b *testing.B) {
	x := randFloats(newRand(26), 1024, 1)
	dst, tmp := make([]float32, len(x)), make([]uint16, len(x))
	b.SetBytes(int64(4 * len(x)))
	for b.Loop() {
		roundHalf(dst, x, tmp)
	}
}
