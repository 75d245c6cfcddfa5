//go:build linux

package kernels

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// streamMats is the number of distinct matrices BenchmarkMXFP4Stream cycles
// through: 200 packed 2880×2880 MXFP4 matrices hold about 0.93 GB, far more
// than any L3 cache, so every product reads its weights from memory.
const streamMats = 200

// BenchmarkMXFP4Stream times the expert products of one mixture layer of a
// decode step as gpt-oss-20b computes them, with weights that always come
// from memory: one MatMulRows of the gate and up
// projections of the experts the step's rows chose, then one of their down
// projections, each product a 2880×2880 MXFP4 matrix not used since the
// 199 before it. The mix "decode8" is what eight rows choosing four of 32
// experts give on average (21 experts: 12 with one row, 6 with two, 2 with
// three, 1 with four); "rows1" is 21 experts with one row each, the same
// bytes with the least arithmetic: the difference is what computing costs
// on top of reading. "t2" runs them on a pool of two threads, timed by the
// wall clock; "t1" on the benchmark's own thread, timed also by that
// thread's CPU time (cpu-ms/layer), which a busy machine disturbs far less
// and which still counts the cycles spent waiting for memory.
//
//	go test ./runtime/kernels -run '^$' -bench MXFP4Stream -benchtime 100x
func BenchmarkMXFP4Stream(b *testing.B) {
	mixes := []struct {
		name string
		rows []int // activation rows of each expert
	}{
		{"decode8", streamMix(map[int]int{1: 12, 2: 6, 3: 2, 4: 1})},
		{"rows1", streamMix(map[int]int{1: 21})},
	}
	rng := newRand(46)
	base := randomMatrix(b, rng, MXFP4, 2880, 2880)
	ws := make([]*Matrix, streamMats)
	for i := range ws {
		w, err := NewMatrix(Matrix{Type: MXFP4, Rows: base.Rows, Cols: base.Cols, Data: base.Data})
		if err != nil {
			b.Fatal(err)
		}
		ws[i] = w
	}
	if !ws[0].packedFor(impl()) {
		b.Skip("this CPU has no MXFP4 tile kernels")
	}
	for _, mix := range mixes {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/t%d", mix.name, threads), func(b *testing.B) {
				streamLayers(b, ws, mix.rows, threads)
			})
		}
	}
}

// streamLayers runs BenchmarkMXFP4Stream's layers of experts with the
// activation rows rows on ws, cycled, on a pool of threads threads.
func streamLayers(b *testing.B, ws []*Matrix, rows []int, threads int) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p := NewPool(threads)
	defer p.Close()
	rng := newRand(47)
	base := ws[0]
	n := 0
	for _, r := range rows {
		n += r
	}
	x := randFloats(rng, n*base.Cols, 1)
	var gateUp, down []RowProduct
	r0 := 0
	for _, r := range rows {
		pr := RowProduct{R0: r0, R1: r0 + r}
		for range 2 {
			pr.Out = make([]float32, r*base.Rows)
			gateUp = append(gateUp, pr)
		}
		pr.Out = make([]float32, r*base.Rows)
		down = append(down, pr)
		r0 += r
	}
	next := 0
	layer := func() {
		for i := range rows {
			gateUp[2*i].W, gateUp[2*i+1].W, down[i].W = ws[next%streamMats], ws[(next+1)%streamMats], ws[(next+2)%streamMats]
			next += 3
		}
		p.MatMulRows(x, n, gateUp)
		p.MatMulRows(x, n, down)
	}
	layer()
	var wall, cpu time.Duration
	for b.Loop() {
		c0, t0 := threadCPU(b), time.Now()
		layer()
		wall += time.Since(t0)
		cpu += threadCPU(b) - c0
	}
	bytes := float64(3*len(rows)*len(base.Data)) * float64(b.N)
	b.ReportMetric(float64(wall.Nanoseconds())/1e6/float64(b.N), "ms/layer")
	b.ReportMetric(bytes/wall.Seconds()/1e9, "GB/s")
	if threads == 1 {
		b.ReportMetric(float64(cpu.Nanoseconds())/1e6/float64(b.N), "cpu-ms/layer")
	}
}

// streamMix returns the activation rows of each expert for counts of
// experts by rows, fewest rows first.
func streamMix(experts map[int]int) []int {
	var rows []int
	for r := 1; r <= 8; r++ {
		for range experts[r] {
			rows = append(rows, r)
		}
	}
	return rows
}
