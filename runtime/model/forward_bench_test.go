package model_test

import (
	"fmt"
	"testing"

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
	s, err := m.NewState(pool, rows, 1, ctx)
	if err != nil {
		b.Fatal(err)
	}
	c, err := kvcache.New(kvcache.F16, cfg.Layers, ctx, cfg.KVHeads, cfg.HeadDim)
	if err != nil {
		b.Fatal(err)
	}
	return s, c
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
