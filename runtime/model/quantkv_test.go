package model

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

// decoded returns x as a cache (or query) of format t holds it: quantized
// to t, then decoded.
func decoded(t *testing.T, typ kernels.DType, x []float32) []float32 {
	t.Helper()
	b := make([]byte, kernels.QuantRowBytes(typ, len(x)))
	kernels.QuantizeRow(typ, b, x)
	m, err := kernels.NewMatrixUnpacked(kernels.Matrix{Type: typ, Rows: 1, Cols: len(x), Data: b})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float32, len(x))
	m.Row(0, out)
	return out
}

// filledCache returns a one-layer cache of blocks of bs positions holding
// the given keys and values.
func filledCache(t testing.TB, typ kvcache.Type, heads, hd, bs int, keys, vals [][]float32) *kvcache.Cache {
	t.Helper()
	n := len(keys)
	arena, err := kvcache.NewArenaShapes(typ, []kvcache.Shape{{Heads: heads, HeadDim: hd}}, bs, (n+bs-1)/bs)
	if err != nil {
		t.Fatal(err)
	}
	kc := arena.NewCache()
	if !kvcache.NewPool(arena).Grow(kc, n) {
		t.Fatal("no cache blocks")
	}
	for p := range n {
		kc.Store(0, p, keys[p], vals[p], make([]uint16, heads*hd))
	}
	return kc
}

// TestQuantizedCacheAttention checks attention over Q8_0 and Q4_0 caches
// against the direct computation over what the cache holds (decoded keys
// and values, the query as Q8_0 decodes it), for spans that start and end
// inside blocks, with and without a sink and a softcap.
func TestQuantizedCacheAttention(t *testing.T) {
	const hd, heads, bs, n, scale = 64, 2, 16, 75, 0.125
	rng := rand.New(rand.NewPCG(3, 4))
	vec := func() []float32 {
		x := make([]float32, heads*hd)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		return x
	}
	q := vec()[:hd]
	keys, vals := make([][]float32, n), make([][]float32, n)
	for p := range n {
		keys[p], vals[p] = vec(), vec()
	}
	for _, typ := range []kvcache.Type{kvcache.Q8_0, kvcache.Q4_0} {
		kc := filledCache(t, typ, heads, hd, bs, keys, vals)
		qd := decoded(t, kernels.Q8_0, q)
		for _, c := range []struct {
			start, end, kvh int
			sink, softcap   float32
		}{
			{0, n - 1, 1, float32(math.Inf(-1)), 0},
			{5, 40, 0, 1.5, 0},
			{17, 17, 1, float32(math.Inf(-1)), 2},
			{33, 74, 0, -1, 3},
		} {
			want := make([]float64, hd)
			var sum float64
			if !math.IsInf(float64(c.sink), -1) {
				sum = math.Exp(float64(c.sink))
			}
			w := make([]float64, n)
			for p := c.start; p <= c.end; p++ {
				k := decoded(t, typ.DType(), keys[p][c.kvh*hd:(c.kvh+1)*hd])
				var s float64
				for i := range hd {
					s += float64(qd[i]) * float64(k[i])
				}
				s *= scale
				if c.softcap > 0 {
					s = float64(c.softcap) * math.Tanh(s/float64(c.softcap))
				}
				w[p] = math.Exp(s)
				sum += w[p]
			}
			for p := c.start; p <= c.end; p++ {
				v := decoded(t, typ.DType(), vals[p][c.kvh*hd:(c.kvh+1)*hd])
				for i := range hd {
					want[i] += w[p] / sum * float64(v[i])
				}
			}
			out := make([]float32, hd)
			sp := span{q: q, out: out, kc: kc, kvh: c.kvh, dim: kc.Dim(0), bs: bs, start: c.start, end: c.end,
				scale: scale, softcap: c.softcap, sink: c.sink}
			sp.quantized(make([]float32, c.end+1-c.start), make([]byte, kernels.QuantRowBytes(kernels.Q8_0, hd)))
			for i := range hd {
				if math.Abs(float64(out[i])-want[i]) > 2e-5 {
					t.Fatalf("%v, positions %d-%d of head %d: out[%d] = %v, want %v", typ, c.start, c.end, c.kvh, i, out[i], want[i])
				}
			}
		}
	}
}
