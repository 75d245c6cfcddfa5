package model

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

// TestAttentionSinks checks attention with a sink logit against the direct
// computation: out = Σ_t v_t·e^(s_t) / (Σ_t e^(s_t) + e^sink) with
// s_t = scale·q·k_t, in the float32 path and in the row-by-row path over
// halves, for sinks below, among and above the scores, and that a sink of
// -Inf is plain attention.
func TestAttentionSinks(t *testing.T) {
	const hd, n, scale = 8, 11, 0.4
	rng := rand.New(rand.NewPCG(1, 2))
	// Multiples of 1/16 below 2, exact in halves.
	val := func() float32 { return float32(rng.IntN(64)-32) / 16 }
	q, keys, vals := make([]float32, hd), make([][]float32, n), make([][]float32, n)
	for i := range q {
		q[i] = val()
	}
	for p := range n {
		keys[p], vals[p] = make([]float32, hd), make([]float32, hd)
		for i := range hd {
			keys[p][i], vals[p][i] = val(), val()
		}
	}
	direct := func(sink float64) []float64 {
		w, sum := make([]float64, n), math.Exp(sink)
		for p := range n {
			var s float64
			for i := range hd {
				s += float64(q[i]) * float64(keys[p][i])
			}
			w[p] = math.Exp(scale * s)
			sum += w[p]
		}
		out := make([]float64, hd)
		for p := range n {
			for i := range hd {
				out[i] += w[p] / sum * float64(vals[p][i])
			}
		}
		return out
	}
	for _, typ := range []kvcache.Type{kvcache.F32, kvcache.F16} {
		kc := filledCache(t, typ, 1, hd, 4, keys, vals)
		for _, sink := range []float64{math.Inf(-1), -3, 0.5, 4} {
			out := make([]float32, hd)
			sp := span{q: q, out: out, kc: kc, dim: kc.Dim(0), bs: kc.BlockSize(), end: n - 1, scale: scale, sink: float32(sink)}
			sc := make([]float32, n)
			tol := 1e-5
			if typ == kvcache.F16 {
				sp.halfAccum(sc, make([]float32, hd), make([]uint16, hd))
				tol = 5e-3
			} else {
				exact(&sp, sc, f32Block, kernels.ScoresF32, kernels.AccumF32)
			}
			want := direct(sink)
			for i := range hd {
				if math.Abs(float64(out[i])-want[i]) > tol {
					t.Fatalf("cache %v, sink %v: out[%d] = %v, want %v", typ, sink, i, out[i], want[i])
				}
			}
		}
	}
}

// TestSoftmaxSink checks the weights against e^(s_i)/(Σ e^(s_j) + e^sink),
// with scores far above zero that a naive exponential would overflow.
func TestSoftmaxSink(t *testing.T) {
	for _, sink := range []float32{-2, 100, 300} {
		sc := []float32{101, 99.5, 100}
		want := make([]float64, len(sc))
		m := math.Max(float64(sink), 101)
		sum := math.Exp(float64(sink) - m)
		for i, v := range sc {
			want[i] = math.Exp(float64(v) - m)
			sum += want[i]
		}
		softmaxSink(sc, sink)
		for i := range sc {
			if math.Abs(float64(sc[i])-want[i]/sum) > 1e-6 {
				t.Fatalf("sink %v: weight %d = %v, want %v", sink, i, sc[i], want[i]/sum)
			}
		}
	}
}
