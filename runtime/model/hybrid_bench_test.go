package model_test

import (
	"fmt"
	"math"
	"os"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/gguf"
	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/model"

	_ "github.com/mlxrun/mlx/runtime/arch/qwen35"
)

// benchCtx is the context of the real-shape benchmarks: steps go on from
// where the last stopped and start over past it.
const benchCtx = 512

// realShape is a model of the GGUF file MLX_BENCH_GGUF names (a
// real-shape file from docs/bench-models.py) with a state for up to 16
// rows and a cache of benchCtx positions, at 2 threads.
type realShape struct {
	cfg   *config.Model
	src   model.Source
	pool  *kernels.Pool
	m     *model.Model
	state *model.State
	kv    *kvcache.Pool
	cache *kvcache.Cache
	pos   int
}

// openRealShape loads the file, or skips when MLX_BENCH_GGUF is unset.
func openRealShape(b *testing.B) *realShape {
	b.Helper()
	file := os.Getenv("MLX_BENCH_GGUF")
	if file == "" {
		b.Skip("MLX_BENCH_GGUF names no real-shape GGUF file")
	}
	f, err := gguf.Open(file)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	r := &realShape{src: model.GGUFSource{F: f}, pool: kernels.NewPool(2)}
	b.Cleanup(r.pool.Close)
	if r.cfg, err = config.FromGGUF(f); err != nil {
		b.Fatal(err)
	}
	if r.m, err = model.Build(r.cfg, r.src); err != nil {
		b.Fatal(err)
	}
	r.state, r.kv, r.cache = newBenchState(b, r.m, r.pool)
	return r
}

// newBenchState returns a state, a cache pool and a cache of benchCtx
// positions for m.
func newBenchState(b *testing.B, m *model.Model, pool *kernels.Pool) (*model.State, *kvcache.Pool, *kvcache.Cache) {
	b.Helper()
	s, err := m.NewState(pool, 16, 16, benchCtx)
	if err != nil {
		b.Fatal(err)
	}
	a, err := kvcache.NewArenaShapes(kvcache.F16, m.KVShapes(), benchCtx, 1)
	if err != nil {
		b.Fatal(err)
	}
	if err := a.SetState(m.StateElems()); err != nil {
		b.Fatal(err)
	}
	kv := kvcache.NewPool(a)
	c := a.NewCache()
	if !kv.Grow(c, benchCtx) {
		b.Fatal("no cache block")
	}
	return s, kv, c
}

// step runs n rows after the cached ones (16 prompt rows first, untimed,
// when the cache is empty or full), every row's logits and hidden state
// wanted as when verifying drafted tokens.
func (r *realShape) step(b *testing.B, n int) {
	if r.pos == 0 || r.pos+n > benchCtx {
		b.StopTimer()
		r.pos = 0
		r.forward(b, 16, false)
		b.StartTimer()
	}
	r.forward(b, n, true)
}

// forward runs n rows from r.pos.
func (r *realShape) forward(b *testing.B, n int, all bool) {
	batch := batchOf(r.cache, n, r.pos)
	if all {
		batch.Out, batch.AllHidden = batch.Out[:0], true
		for i := range n {
			batch.Out = append(batch.Out, i)
		}
	}
	if _, err := r.state.Forward(batch); err != nil {
		b.Fatal(err)
	}
	r.pos += n
}

// timeSteps runs fn as the benchmark's loop and reports milliseconds per
// call, the mean and the fastest (the one least slowed by other processes
// on a shared machine).
func timeSteps(b *testing.B, fn func()) {
	b.ReportAllocs()
	best := time.Duration(math.MaxInt64)
	for b.Loop() {
		t0 := time.Now()
		fn()
		best = min(best, time.Since(t0))
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms/step")
	b.ReportMetric(float64(best.Microseconds())/1e3, "min-ms/step")
}

// BenchmarkRealShapeStep times the pieces of decoding a real-shape file
// with and without drafting: rows/1 is a plain decode step, rows/k+1 the
// step that verifies k drafted tokens, and mtp-draft one guess of the
// file's multi-token prediction layer (when it has one: bench-models.py
// --mtp). The file is MLX_BENCH_GGUF; without it the benchmark skips.
//
//	MLX_BENCH_GGUF=FILE go test ./runtime/model -run '^$' -bench RealShapeStep -benchtime 20x
func BenchmarkRealShapeStep(b *testing.B) {
	r := openRealShape(b)
	for n := 1; n <= 5; n++ {
		b.Run(fmt.Sprintf("rows/%d", n), func(b *testing.B) {
			timeSteps(b, func() { r.step(b, n) })
		})
	}
	b.Run("mtp-draft", func(b *testing.B) {
		mtp, err := model.BuildMTP(r.cfg, r.src)
		if err != nil {
			b.Skip(err)
		}
		s, _, c := newBenchState(b, mtp, r.pool)
		hidden := make([]float32, r.cfg.HiddenSize)
		for i := range hidden {
			hidden[i] = float32(i%7) / 7
		}
		pos := 0
		timeSteps(b, func() {
			if pos == benchCtx {
				pos = 0
			}
			batch := batchOf(c, 1, pos)
			batch.Hidden = hidden
			if _, err := s.Forward(batch); err != nil {
				b.Fatal(err)
			}
			pos++
		})
	})
}
