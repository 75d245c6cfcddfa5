//go:build linux && !noasm && amd64

package kernels

import (
	"fmt"
	"runtime"
	"testing"
)

// BenchmarkMXFP4TilesCPU times a 512×2880 MXFP4 product (one eighth of a
// gpt-oss-20b expert projection, packed, in the L2 cache) with the few
// activation rows a decode step of several sequences gives an expert, on
// one thread by the thread's CPU time (BenchmarkOneColumnCPU): the tile
// kernels' own cost, for the AVX2 set and for the set this CPU runs. One
// and two rows show what the two-column kernel saves over two one-column
// passes; three and four rows the wide kernel, padded and whole.
func BenchmarkMXFP4TilesCPU(b *testing.B) {
	rng := newRand(45)
	sets := map[string]gemmSet{"avx2": gemmAVX2[MXFP4], "fast": fastKernels.gemm[MXFP4]}
	for _, name := range []string{"avx2", "fast"} {
		for _, n := range []int{1, 2, 3, 4} {
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				if sets[name].one == nil {
					b.Skip("this CPU has no such kernels")
				}
				k := fastKernels
				k.gemm[MXFP4] = sets[name]
				old := current.Load()
				current.Store(&k)
				defer current.Store(old)
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				w := randomMatrix(b, rng, MXFP4, 512, 2880)
				x := randFloats(rng, n*2880, 1)
				out := make([]float32, n*512)
				p := NewPool(1)
				defer p.Close()
				p.MatMul(w, x, n, out)
				b.ReportAllocs()
				t0 := threadCPU(b)
				for b.Loop() {
					p.MatMul(w, x, n, out)
				}
				cpu := threadCPU(b) - t0
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
