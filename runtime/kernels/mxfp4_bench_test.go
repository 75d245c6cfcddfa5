package kernels

import (
	"fmt"
	"testing"
)

// BenchmarkMatMulMXFP4 times one gpt-oss-20b expert projection (2880 ×
// 2880) in MXFP4 for a decode step (n=1), a few sequences and a prefill
// chunk's share of one expert: packed for the tile kernels where the CPU
// has them, and read in place (NewMatrixUnpacked, an expert not yet
// packed); next to the 4-bit 32-value formats Q4_0 (packed) and Q4_1 (read
// in place by the same per-row kernels as unpacked MXFP4). SetBytes is the
// size of the stored matrix.
func BenchmarkMatMulMXFP4(b *testing.B) {
	rng := newRand(11)
	cases := []struct {
		typ     DType
		inPlace bool
	}{{MXFP4, false}, {MXFP4, true}, {Q4_0, false}, {Q4_1, false}}
	for _, impl := range []string{"asm", "ref"} {
		for _, c := range cases {
			for _, n := range []int{1, 2, 3, 4, 32} {
				name := c.typ.String()
				if c.inPlace {
					name += "-inplace"
				}
				b.Run(fmt.Sprintf("%s/%s/n=%d", impl, name, n), func(b *testing.B) {
					SetReference(impl == "ref")
					defer SetReference(false)
					const rows, cols = 2880, 2880
					w := randomMatrix(b, rng, c.typ, rows, cols)
					if c.inPlace {
						var err error
						if w, err = NewMatrixUnpacked(Matrix{Type: c.typ, Rows: rows, Cols: cols, Data: w.Data}); err != nil {
							b.Fatal(err)
						}
					}
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
