//go:build linux

package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkHugePages times one activation row (a decode step) against a
// packed matrix far larger than the caches, the shape of a 151936×1024
// output matrix, with its packed copy on 4 KiB pages and on huge pages
// (SetHugePages). MB/s and cpu-GB/s count the packed bytes, per wall and
// per CPU second (see BenchmarkHalfDecode).
func BenchmarkHugePages(b *testing.B) {
	const rows, cols = 151936, 1024
	r := rand.New(rand.NewPCG(2, 2))
	x := randFloats(r, cols, 1)
	out := make([]float32, rows)
	defer SetHugePages(HugePages())
	for _, typ := range []DType{Q8_0, Q4_0, Q4_K} {
		size := rows * cols / typ.blockElems() * typ.blockBytes()
		e := new(enc)
		for len(e.b) < size {
			blockGens[typ](r, e)
		}
		for _, huge := range []bool{false, true} {
			SetHugePages(huge)
			m, err := NewMatrix(Matrix{Type: typ, Rows: rows, Cols: cols, Data: e.b[:size]})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%v/huge=%v", typ, huge), func(b *testing.B) {
				if !m.Packed() {
					b.Skip("no packed layout for this CPU")
				}
				p := NewPool(2)
				defer p.Close()
				p.MatMul(m, x, 1, out)
				b.SetBytes(int64(m.PackedBytes()))
				b.ReportAllocs()
				t0 := processCPU(b)
				for b.Loop() {
					p.MatMul(m, x, 1, out)
				}
				cpu := processCPU(b) - t0
				b.ReportMetric(float64(m.PackedBytes())*float64(b.N)/cpu.Seconds()/1e9, "cpu-GB/s")
			})
		}
	}
}
