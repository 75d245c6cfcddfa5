//go:build linux

package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// BenchmarkHalfDecode times one activation row (a decode step) against an
// F16 or BF16 matrix far larger than the caches, the shape of a tied output
// matrix (151936×1024, 311 MB), so that the rate is the memory stream's
// as the kernels see it. MB/s counts the weight bytes per wall second;
// cpu-GB/s the same per second of the process's CPU time, which a busy
// shared machine disturbs less.
func BenchmarkHalfDecode(b *testing.B) {
	const rows, cols = 151936, 1024
	w := &Matrix{Rows: rows, Cols: cols, HalfActs: true, Data: make([]byte, rows*cols*2)}
	rng := rand.New(rand.NewPCG(3, 3))
	var tab [4096]uint16 // a pattern of random halves, repeated
	for i := range tab {
		tab[i] = f32ToF16(float32(rng.NormFloat64() * 0.1))
	}
	d := asU16(w.Data)
	for i := range d {
		d[i] = tab[i%len(tab)]
	}
	x := randFloats(rng, cols, 1)
	out := make([]float32, rows)
	for _, typ := range []DType{F16, BF16} {
		w.Type = typ // the random halves read as BF16 are as good a stream
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%v/%dx%d/t=%d", typ, rows, cols, threads), func(b *testing.B) {
				p := NewPool(threads)
				defer p.Close()
				p.MatMul(w, x, 1, out)
				b.SetBytes(int64(len(w.Data)))
				b.ReportAllocs()
				t0 := processCPU(b)
				for b.Loop() {
					p.MatMul(w, x, 1, out)
				}
				cpu := processCPU(b) - t0
				b.ReportMetric(float64(len(w.Data))*float64(b.N)/cpu.Seconds()/1e9, "cpu-GB/s")
			})
		}
	}
}

// processCPU returns the CPU time of the process, all its threads.
func processCPU(b *testing.B) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ts.Nano())
}
