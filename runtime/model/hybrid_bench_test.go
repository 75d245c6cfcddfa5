package model_test

import (
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

// room starts the cache over with 16 prompt rows when it is empty or
// has no room for n more.
func (r *realShape) room(b *testing.B, n int) {
	if r.pos == 0 || r.pos+n > benchCtx {
		r.pos = 0
		r.forward(b, 16, false)
	}
}

// forward runs n rows from r.pos: with all, every row's logits and hidden
// state wanted, as when verifying drafted tokens.
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

// BenchmarkRealShapeStep times the pieces of decoding a real-shape file
// with and without drafting: rows1 is a plain decode step, rowsK+1 the
// step that verifies K drafted tokens, and draft one guess of the file's
// multi-token prediction layer (when it has one: bench-models.py --mtp).
// Each iteration runs every piece once, so that all of them meet the same
// load on a shared machine; each is reported as its mean and its fastest
// time. The file is MLX_BENCH_GGUF; without it the benchmark skips.
//
//	MLX_BENCH_GGUF=FILE go test ./runtime/model -run '^$' -bench RealShapeStep -benchtime 20x
func BenchmarkRealShapeStep(b *testing.B) {
	r := openRealShape(b)
	pieces := []string{"rows1", "rows2", "rows3", "rows4", "rows5"}
	run, rows := []func(){}, 0 // rows: the main model's rows per iteration
	for n := 1; n <= len(pieces); n++ {
		run, rows = append(run, func() { r.forward(b, n, true) }), rows+n
	}
	if mtp, err := model.BuildMTP(r.cfg, r.src); err == nil {
		s, _, c := newBenchState(b, mtp, r.pool)
		hidden := make([]float32, r.cfg.HiddenSize)
		for i := range hidden {
			hidden[i] = float32(i%7) / 7
		}
		pos := 0
		pieces = append(pieces, "draft")
		run = append(run, func() {
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
	}
	total := make([]time.Duration, len(run))
	best := make([]time.Duration, len(run))
	for i := range best {
		best[i] = time.Duration(math.MaxInt64)
	}
	b.ReportAllocs()
	for b.Loop() {
		r.room(b, rows)
		for i, fn := range run {
			t0 := time.Now()
			fn()
			d := time.Since(t0)
			total[i] += d
			best[i] = min(best[i], d)
		}
	}
	for i, name := range pieces {
		b.ReportMetric(total[i].Seconds()*1e3/float64(b.N), name+"-ms")
		b.ReportMetric(best[i].Seconds()*1e3, name+"-min-ms")
	}
}
