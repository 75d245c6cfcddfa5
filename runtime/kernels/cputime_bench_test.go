//go:build linux

package kernels

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// BenchmarkOneColumnCPU times one-activation-row matmuls (a decode step's
// shape) on one thread by the thread's CPU time, which a busy shared
// machine disturbs far less than the wall clock: cpu-ns/op and cpu-GB/s
// (the bytes the kernels read) are the figures to compare between builds.
// The quantized 1024×1024 matrices stay in a 1 MiB L2 cache (F16 in L3),
// so the figures are the kernels' own rate, to set against the memory
// bandwidth of one core: where they come close, a decode step's reads
// are no longer hidden behind the arithmetic.
func BenchmarkOneColumnCPU(b *testing.B) {
	rng := newRand(44)
	for _, typ := range []DType{Q4_0, Q4_K, Q6_K, Q8_0, F16} {
		b.Run(fmt.Sprintf("%v/1024x1024", typ), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			w := randomMatrix(b, rng, typ, 1024, 1024)
			x := randFloats(rng, 1024, 1)
			out := make([]float32, 1024)
			p := NewPool(1)
			defer p.Close()
			p.MatMul(w, x, 1, out)
			bytes := w.PackedBytes()
			if bytes == 0 {
				bytes = len(w.Data)
			}
			b.ReportAllocs()
			t0 := threadCPU(b)
			for b.Loop() {
				p.MatMul(w, x, 1, out)
			}
			cpu := threadCPU(b) - t0
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(bytes)*float64(b.N)/cpu.Seconds()/1e9, "cpu-GB/s")
		})
	}
}

// threadCPU returns the CPU time of the calling thread.
func threadCPU(b *testing.B) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ts.Nano())
}
