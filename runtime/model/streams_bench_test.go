//go:build linux

package model_test

import (
	"os"
	goruntime "runtime"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/model"

	_ "github.com/mlxrun/mlx/runtime/arch/gptoss"
)

// streamsPrompt and streamsEnd are the cached positions a sequence of
// BenchmarkRealShapeStreams starts decoding at and starts over from.
const (
	streamsPrompt = 64
	streamsEnd    = 192
)

// BenchmarkRealShapeStreams times decode steps of one and of eight
// sequences on the real-shape file MLX_BENCH_GGUF, as the server batches
// its streams: each sequence has its own cache, decodes from 64 cached
// positions to 192, then starts over. Each iteration runs one step of each,
// so both meet the same load on a shared machine. The steps run on one
// thread, timed by that thread's CPU time, which a busy machine disturbs
// far less than the wall clock (and which no idle worker's spinning
// inflates): cpu-ns/token of one sequence over that of eight
// (cpu-ratio) is about the throughput eight streams give over one while
// both are bound by the work of a step. MLX_BENCH_THREADS=N runs the steps
// on a pool of N threads instead, as the server does; then only the wall
// clock (ns/token) means anything.
//
//	MLX_BENCH_GGUF=FILE go test ./runtime/model -run '^$' -bench RealShapeStreams -benchtime 40x
func BenchmarkRealShapeStreams(b *testing.B) {
	r := openRealShape(b)
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	threads := 1
	if v := os.Getenv("MLX_BENCH_THREADS"); v != "" {
		t, err := strconv.Atoi(v)
		if err != nil || t < 1 || t > 256 {
			b.Fatalf("MLX_BENCH_THREADS=%q: want a thread count from 1 to 256", v)
		}
		threads = t
	}
	pool := kernels.NewPool(threads)
	b.Cleanup(pool.Close)
	seqs := []int{1, 8}
	rooms, steps := make([]func(), len(seqs)), make([]func(), len(seqs))
	for i, n := range seqs {
		rooms[i], steps[i] = r.streams(b, pool, n)
		rooms[i]()
		steps[i]() // the experts' first use packs them
	}
	cpu := make([]time.Duration, len(seqs))
	wall := make([]time.Duration, len(seqs))
	b.ReportAllocs()
	for b.Loop() {
		for i, step := range steps {
			rooms[i]()
			c0, t0 := threadCPU(b), time.Now()
			step()
			wall[i] += time.Since(t0)
			cpu[i] += threadCPU(b) - c0
		}
	}
	for i, n := range seqs {
		tokens := float64(n) * float64(b.N)
		b.ReportMetric(float64(cpu[i].Nanoseconds())/tokens, "cpu-ns/token-"+strconv.Itoa(n))
		b.ReportMetric(float64(wall[i].Nanoseconds())/tokens, "ns/token-"+strconv.Itoa(n))
	}
	b.ReportMetric(float64(cpu[0].Nanoseconds())*float64(seqs[1])/float64(cpu[1].Nanoseconds()), "cpu-ratio")
}

// streams returns a decode step of n sequences with a state and caches of
// their own, and room, which prefills each with streamsPrompt positions
// when they have reached streamsEnd (and at first).
func (r *realShape) streams(b *testing.B, pool *kernels.Pool, n int) (room, step func()) {
	b.Helper()
	s, err := r.m.NewState(pool, streamsPrompt, n, streamsEnd+1)
	if err != nil {
		b.Fatal(err)
	}
	a, err := kvcache.NewArenaShapes(kvcache.F16, r.m.KVShapes(), streamsEnd+1, n)
	if err != nil {
		b.Fatal(err)
	}
	kv := kvcache.NewPool(a)
	batch := &model.Batch{}
	for i := range n {
		c := a.NewCache()
		if !kv.Grow(c, streamsEnd+1) {
			b.Fatal("no cache block")
		}
		batch.Tokens = append(batch.Tokens, int32(300+i))
		batch.Pos = append(batch.Pos, 0)
		batch.Cache = append(batch.Cache, c)
		batch.Out = append(batch.Out, i)
	}
	room = func() {
		if p := batch.Pos[0]; p != 0 && p < streamsEnd {
			return
		}
		for i, c := range batch.Cache {
			if _, err := s.Forward(batchOf(c, streamsPrompt, 0)); err != nil {
				b.Fatal(err)
			}
			batch.Pos[i] = streamsPrompt
		}
	}
	step = func() {
		if _, err := s.Forward(batch); err != nil {
			b.Fatal(err)
		}
		for i := range batch.Pos {
			batch.Pos[i]++
			batch.Tokens[i] = int32(300 + (int(batch.Tokens[i])+7*i)%1000)
		}
	}
	return room, step
}

// threadCPU returns the CPU time of the calling thread.
func threadCPU(b *testing.B) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ts.Nano())
}
