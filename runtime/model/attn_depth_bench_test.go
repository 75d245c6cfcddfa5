package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

// BenchmarkAttentionDepth is one query head of a decode step attending to
// a context of 16384 positions of the Llama-3.2-1B shape (heads of 64,
// 8 KV heads), in each cache type; a step of that model runs 32 heads in
// each of 16 layers.
func BenchmarkAttentionDepth(b *testing.B) {
	const hd, heads, bs, n = 64, 8, 128, 16384
	rng := rand.New(rand.NewPCG(5, 6))
	keys, vals := make([][]float32, n), make([][]float32, n)
	for p := range n {
		keys[p], vals[p] = make([]float32, heads*hd), make([]float32, heads*hd)
		for i := range keys[p] {
			keys[p][i], vals[p][i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
		}
	}
	q := make([]float32, hd)
	for i := range q {
		q[i] = float32(rng.NormFloat64()) / 4
	}
	for _, typ := range []kvcache.Type{kvcache.F16, kvcache.Q8_0, kvcache.Q4_0} {
		kc := filledCache(b, typ, heads, hd, bs, keys, vals)
		for _, path := range []string{"row", "tiled"} {
			if typ.Quantized() && path == "tiled" {
				continue
			}
			b.Run(fmt.Sprintf("%v/%s", typ, path), func(b *testing.B) {
				out, sc := make([]float32, hd), make([]float32, n)
				qr, half, qq := make([]float32, hd), make([]uint16, hd), make([]byte, kernels.QuantRowBytes(kernels.Q8_0, hd))
				sp := span{q: q, out: out, kc: kc, kvh: 3, kvo: 3 * hd, dim: kc.Dim(0), bs: bs, end: n - 1, scale: 0.125, sink: float32(math.Inf(-1))}
				b.SetBytes(int64(kvcache.BlockBytes(typ, 1, 1, hd, n)))
				for range b.N {
					switch {
					case typ.Quantized():
						sp.quantized(sc, qq)
					case path == "row":
						sp.halfAccum(sc, qr, half)
					default:
						exact(&sp, sc, f16Block, kernels.ScoresF16, kernels.AccumF16)
					}
				}
			})
		}
	}
}

// BenchmarkLayerAttentionDepth is the attention of one layer of the
// Llama-3.2-1B shape (32 query heads, 8 KV heads of 64) after 16384
// positions, on two threads: a decode step (one row) and 64 rows of a
// prefill chunk, in each cache type.
func BenchmarkLayerAttentionDepth(b *testing.B) {
	const heads, kvHeads, hd, bs, depth = 32, 8, 64, 128, 16384
	rng := rand.New(rand.NewPCG(9, 10))
	vec := func(k int) []float32 {
		x := make([]float32, k)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		return x
	}
	keys, vals := make([][]float32, depth+64), make([][]float32, depth+64)
	for p := range keys {
		keys[p], vals[p] = vec(kvHeads*hd), vec(kvHeads*hd)
	}
	for _, typ := range []kvcache.Type{kvcache.F16, kvcache.Q8_0, kvcache.Q4_0} {
		kc := filledCache(b, typ, kvHeads, hd, bs, keys, vals)
		for _, rows := range []int{1, 64} {
			b.Run(fmt.Sprintf("%v/rows=%d", typ, rows), func(b *testing.B) {
				m := &Model{Config: &config.Model{Heads: heads}, attnScale: 0.125, Layers: []Layer{{HeadDim: hd, KVHeads: kvHeads}}}
				pool := kernels.NewPool(2)
				defer pool.Close()
				s := &State{m: m, pool: pool, maxRows: rows, ctx: depth + 64, q: vec(rows * heads * hd), att: make([]float32, rows*heads*hd)}
				s.attn.init(s, 2)
				bt := &Batch{}
				for i := range rows {
					bt.Pos, bt.Cache = append(bt.Pos, depth+i), append(bt.Cache, kc)
				}
				for range b.N {
					s.attn.run(bt, 0, rows, nil)
				}
			})
		}
	}
}
