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

// TestFlashMatchesRows checks the flash path (one pass over the cache
// blocks for every row and query head of a task) against the row-by-row
// path, in every cache type, with grouped query heads, a sliding window,
// sinks and a softcap, for rows that start and end inside blocks: tasks
// of many rows (which decode the blocks of a block format to float32), of
// few (which score them with integer dot products), and a lone row whose
// blocks split into parts merged at the end.
func TestFlashMatchesRows(t *testing.T) {
	const heads, kvHeads, hd, bs, n = 4, 2, 64, 32, flashSpan + 100
	rng := rand.New(rand.NewPCG(7, 8))
	vec := func(k int) []float32 {
		x := make([]float32, k)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		return x
	}
	keys, vals := make([][]float32, n), make([][]float32, n)
	for p := range n {
		keys[p], vals[p] = vec(kvHeads*hd), vec(kvHeads*hd)
	}
	for _, typ := range []kvcache.Type{kvcache.F32, kvcache.F16, kvcache.Q8_0, kvcache.Q4_0} {
		kc := filledCache(t, typ, kvHeads, hd, bs, keys, vals)
		for _, c := range []struct {
			rows    int
			window  int
			sinks   []float32
			softcap float32
		}{{37, 0, nil, 0}, {37, 40, nil, 0}, {37, 0, []float32{0.5, -1, 2, 0}, 0}, {37, 70, nil, 3}, {3, 0, nil, 0}, {1, 50, nil, 2}, {1, 0, []float32{3, -1, 0.5, 1}, 0}, {1, 0, nil, 0}} {
			t.Run(fmt.Sprintf("%v/rows=%d/window=%d/sinks=%v/softcap=%v", typ, c.rows, c.window, c.sinks != nil, c.softcap), func(t *testing.T) {
				m := &Model{Config: &config.Model{Heads: heads, AttnSoftcap: c.softcap}, attnScale: 0.125,
					Layers: []Layer{{HeadDim: hd, KVHeads: kvHeads, Window: c.window, Sinks: c.sinks}}}
				pool := kernels.NewPool(2)
				defer pool.Close()
				s := &State{m: m, pool: pool, maxRows: c.rows, ctx: n, q: vec(c.rows * heads * hd), att: make([]float32, c.rows*heads*hd)}
				s.attn.init(s, 2)
				b := &Batch{}
				for i := range c.rows {
					b.Pos, b.Cache = append(b.Pos, n-c.rows+i-5*(i%2)), append(b.Cache, kc)
				}
				a := &s.attn
				a.run(b, 0, c.rows, nil)
				if !a.flash || c.rows == 1 && a.parts < 2 {
					t.Fatalf("the run did not take the flash path, or did not split a lone row's blocks: %d parts", a.parts)
				}
				flash := append([]float32(nil), s.att...)
				a.b, a.flash, a.tiled = b, false, true
				scores, qr, half, qq := make([]float32, n), make([]float32, hd), make([]uint16, hd), make([]byte, a.qb)
				for i := range c.rows {
					for h := range heads {
						a.row(i, h, scores, qr, half, qq)
					}
				}
				for i, want := range s.att {
					if math.Abs(float64(flash[i]-want)) > 1e-5*(1+math.Abs(float64(want))) {
						t.Fatalf("output %d (row %d): flash %v, row by row %v", i, i/(heads*hd), flash[i], want)
					}
				}
			})
		}
	}
}

// TestMaxFrom checks maxFrom against a plain loop for lengths around its
// groups of four, with the largest value at every place.
func TestMaxFrom(t *testing.T) {
	for n := range 11 {
		for at := range n {
			x := make([]float32, n)
			for i := range x {
				x[i] = float32(i % 3)
			}
			x[at] = 7
			if got := maxFrom(-1, x); got != 7 {
				t.Errorf("n=%d, 7 at %d: %v", n, at, got)
			}
		}
		if got := maxFrom(9, make([]float32, n)); got != 9 {
			t.Errorf("n=%d: start 9 gives %v", n, got)
		}
	}
}
