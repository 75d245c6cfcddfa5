package kernels

import (
	"fmt"
	"testing"
)

// BenchmarkMatMulMXFP4 times one gpt-oss-20b expert projection (2880 ×
// 2880) in MXFP4 for a decode step (n=1), a few sequences and a prefill
// chunk's share of one expert, next to the 4-bit 32-value block formats
// Q4_0 (packed for the tile kernels where the CPU has them) and Q4_1 (read
// in place, as MXFP4 is); SetBytes is the size of the stored matrix.
func BenchmarkMatMulMXFP4(b *testing.B) {
	rng := newRand(11)
	for _, impl := range []string{"asm", "ref"} {
		for _, typ := range []DType{MXFP4, Q4_0, Q4_1} {
			for _, n := range []int{1, 4, 32} {
				b.Run(fmt.Sprintf("%s/%v/n=%d", impl, typ, n), func(b *testing.B) {
					SetReference(impl == "ref")
					defer SetReference(false)
					const rows, cols = 2880, 2880
					w := randomMatrix(b, rng, typ, rows, cols)
					x := randFloats(rng, n*cols, 1)
					out := make([]float32, n*rows)
					p := NewPool(PhysicalCores())
					defer p.Close()
					p.MatMul(w, x, n, out)
					b.SetBytes(int64(len(w.Data)))
					b.ReportAllocs()
					b.ResetTimer()
					for range b.N {
						p.MatMul(w, x, n, out)
					}
				})
			}
		}
	}
}
