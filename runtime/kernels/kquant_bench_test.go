package kernels

import (
	"fmt"
	"testing"
)

// kBenchShapes are matmul shapes of Qwen3-0.6B (hidden 1024, ffn 3072, a
// slice of the output matrix) for decode (n=1) and a prefill chunk.
var kBenchShapes = []packedCase{
	{3072, 1024, 1}, {1024, 3072, 1}, {16384, 1024, 1}, {3072, 1024, 64}, {1024, 3072, 64},
}

// BenchmarkPackedK reports weight bytes per second of the K-quant matmuls
// (Q4_0 beside them for comparison) on threads workers.
func BenchmarkPackedK(b *testing.B) {
	rng := newRand(43)
	for _, threads := range []int{1, 2} {
		for _, typ := range []DType{Q4_0, Q4_K, Q6_K} {
			for _, s := range kBenchShapes {
				b.Run(fmt.Sprintf("t=%d/%v/%dx%d/n=%d", threads, typ, s.rows, s.cols, s.n), func(b *testing.B) {
					w := randomMatrix(b, rng, typ, s.rows, s.cols)
					x := randFloats(rng, s.n*s.cols, 1)
					out := make([]float32, s.n*s.rows)
					p := NewPool(threads)
					defer p.Close()
					p.MatMul(w, x, s.n, out)
					b.SetBytes(int64(len(w.Data)))
					b.ReportAllocs()
					b.ResetTimer()
					for range b.N {
						p.MatMul(w, x, s.n, out)
					}
				})
			}
		}
	}
}

// BenchmarkPackK reports the repacking of Q4_K and Q6_K weights at load.
func BenchmarkPackK(b *testing.B) {
	rng := newRand(44)
	for _, typ := range []DType{Q4_K, Q6_K} {
		b.Run(typ.String(), func(b *testing.B) {
			w := randomMatrix(b, rng, typ, 1024, 1024)
			b.SetBytes(int64(len(w.Data)))
			b.ReportAllocs()
			for range b.N {
				w.packKQuant()
			}
		})
	}
}
