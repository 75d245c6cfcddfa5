package kernels

import (
	"fmt"
	"testing"
	"time"
)

// benchShapes are matvec shapes of a small model (SmolLM2-135M: hidden 576,
// ffn 1536, vocab 49152) a decode step of 8 sequences and a
// prefill of 64 tokens.
var benchShapes = []struct{ rows, cols, n int }{
	{576, 576, 1},
	{1536, 576, 1},
	{576, 1536, 1},
	{49152, 576, 1},
	{1536, 576, 8},
	{576, 1536, 8},
	{49152, 576, 8},
	{1536, 576, 64},
	{576, 1536, 64},
}

// BenchmarkMatMul reports weight bytes per second (SetBytes is the size of
// the stored matrix), with the fastest kernels and with the reference ones.
func BenchmarkMatMul(b *testing.B) {
	rng := newRand(10)
	for _, impl := range []string{"asm", "ref"} {
		for _, typ := range allTypes {
			for _, s := range benchShapes {
				if s.cols%typ.blockElems() != 0 || (testing.Short() && s.rows > 10000) {
					continue
				}
				name := fmt.Sprintf("%s/%v/%dx%d/n=%d", impl, typ, s.rows, s.cols, s.n)
				b.Run(name, func(b *testing.B) {
					SetReference(impl == "ref")
					defer SetReference(false)
					w := randomMatrix(b, rng, typ, s.rows, s.cols)
					x := randFloats(rng, s.n*s.cols, 1)
					out := make([]float32, s.n*s.rows)
					p := NewPool(PhysicalCores())
					defer p.Close()
					p.MatMul(w, x, s.n, out)
					b.SetBytes(int64(len(w.Data) + len(w.Scales) + len(w.Biases)))
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

func BenchmarkParallel(b *testing.B) {
	p := NewPool(PhysicalCores())
	defer p.Close()
	var sink [64]float32
	fn := func(i int) { sink[i]++ }
	b.ReportAllocs()
	for range b.N {
		p.Parallel(64, fn)
	}
}

// BenchmarkQuantize measures the activation quantizers on a 64-token batch
// of 1536 columns (SetBytes is the float32 input).
func BenchmarkQuantize(b *testing.B) {
	x := randFloats(newRand(13), 64*1536, 1)
	for _, impl := range []string{"asm", "ref"} {
		for _, a := range []actKind{actQ8_0, actQ8_1, actQ8_K, actPair, actQ8_KP} {
			b.Run(fmt.Sprintf("%s/act=%d", impl, a), func(b *testing.B) {
				k := &fastKernels
				if impl == "ref" {
					k = &refKernels
				}
				dst := make([]byte, 64*a.rowBytes(1536))
				b.SetBytes(int64(4 * len(x)))
				b.ReportAllocs()
				for range b.N {
					k.quantize[a](dst, x)
				}
			})
		}
	}
}

// BenchmarkParallelAfterGap is one pool operation after 20µs of work on the
// calling goroutine alone, as between the matmuls of a decode step: it
// shows how long idle workers take to join.
func BenchmarkParallelAfterGap(b *testing.B) {
	p := NewPool(PhysicalCores())
	defer p.Close()
	var sink [64]float32
	fn := func(i int) { sink[i]++ }
	b.ReportAllocs()
	var busy time.Duration
	for range b.N {
		t := time.Now()
		for time.Since(t) < 20*time.Microsecond {
		}
		busy += time.Since(t)
		p.Parallel(64, fn)
	}
	b.ReportMetric(float64(b.Elapsed()-busy)/float64(b.N), "ns/op-excl-gap")
}
