package model_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/models/gguf"
	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/model"

	_ "github.com/mlxrun/mlx/runtime/arch/llama"
)

// benchModel loads a fixture GGUF with a state for batches of rows and a
// cache of ctx positions.
func benchModel(b *testing.B, file string, rows, ctx int) (*model.State, *kvcache.Cache) {
	b.Helper()
	s, caches := benchModelSeqs(b, file, rows, 1, ctx)
	return s, caches[0]
}

// benchModelSeqs is benchModel with a state for seqs output rows and a
// cache for each.
func benchModelSeqs(b *testing.B, file string, rows, seqs, ctx int) (*model.State, []*kvcache.Cache) {
	b.Helper()
	f, err := gguf.Open(fixture.Path(b, "gguf", file))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	cfg, err := config.FromGGUF(f)
	if err != nil {
		b.Fatal(err)
	}
	m, err := model.Build(cfg, model.GGUFSource{F: f})
	if err != nil {
		b.Fatal(err)
	}
	pool := kernels.NewPool(2)
	b.Cleanup(pool.Close)
	s, err := m.NewState(pool, rows, seqs, ctx)
	if err != nil {
		b.Fatal(err)
	}
	caches := make([]*kvcache.Cache, seqs)
	for i := range caches {
		if caches[i], err = kvcache.New(kvcache.F16, cfg.Layers, ctx, cfg.KVHeads, cfg.HeadDim); err != nil {
			b.Fatal(err)
		}
	}
	return s, caches
}

// batchOf returns a batch of n tokens at positions from pos on.
func batchOf(c *kvcache.Cache, n, pos int) *model.Batch {
	b := &model.Batch{Out: []int{n - 1}}
	for i := range n {
		b.Tokens = append(b.Tokens, int32(100+i))
		b.Pos = append(b.Pos, pos+i)
		b.Cache = append(b.Cache, c)
	}
	return b
}

// BenchmarkDecodeStep is one token through the model after 64 cached ones.
func BenchmarkDecodeStep(b *testing.B) {
	for _, file := range []string{"llama-k256-Q4_K_M.gguf", "llama-tiny-Q8_0.gguf"} {
		b.Run(file, func(b *testing.B) {
			s, c := benchModel(b, file, 64, 128)
			if _, err := s.Forward(batchOf(c, 64, 0)); err != nil {
				b.Fatal(err)
			}
			step := batchOf(c, 1, 64)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Forward(step); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPrefillChunk is a chunk of prompt tokens from an empty cache.
func BenchmarkPrefillChunk(b *testing.B) {
	for _, n := range []int{64, 256} {
		b.Run(fmt.Sprintf("k256-Q4_K_M/%d", n), func(b *testing.B) {
			s, c := benchModel(b, "llama-k256-Q4_K_M.gguf", n, n)
			batch := batchOf(c, n, 0)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Forward(batch); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "tok/s")
		})
	}
}

// BenchmarkDecodeStep8 is one step of 8 sequences decoding together
// (continuous batching), each a token after 64 cached ones.
func BenchmarkDecodeStep8(b *testing.B) {
	for _, file := range []string{"llama-tiny-Q8_0.gguf", "llama-tiny-Q4_0.gguf"} {
		b.Run(file, func(b *testing.B) {
			s, caches := benchModelSeqs(b, file, 64, 8, 128)
			step := &model.Batch{}
			for i, ci := range caches {
				if _, err := s.Forward(batchOf(ci, 64, 0)); err != nil {
					b.Fatal(err)
				}
				step.Tokens = append(step.Tokens, int32(200+i))
				step.Pos = append(step.Pos, 64)
				step.Cache = append(step.Cache, ci)
				step.Out = append(step.Out, i)
			}
			b.ReportAllocs()
			best := time.Duration(math.MaxInt64)
			for b.Loop() {
				t0 := time.Now()
				if _, err := s.Forward(step); err != nil {
					b.Fatal(err)
				}
				best = min(best, time.Since(t0))
			}
			b.ReportMetric(8*float64(b.N)/b.Elapsed().Seconds(), "tok/s")
			// The fastest step: on a shared machine, the one least slowed
			// by other processes.
			b.ReportMetric(float64(best.Nanoseconds()), "min-ns/step")
		})
	}
}
