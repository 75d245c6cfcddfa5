package model

import (
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"testing"

	"github.com/mlxrun/mlx/runtime/kernels"
)

// BenchmarkMoE times one sparse layer's mixture (router, grouped experts,
// weighted sum) on a prefill chunk and on decode steps of one and eight
// sequences, with Q8_0 experts read in place. The qwen3-30b-a3b shape is
// one layer of that model: hidden 2048, 128 experts of 768, top 8. Bytes
// are the expert weights the batch reads: those of every expert routed to
// at least once.
func BenchmarkMoE(b *testing.B) {
	shapes := []struct {
		name  string
		shape moeShape
	}{
		{"small", moeShape{hidden: 512, experts: 16, topK: 4, ff: 256, pack: true}},
		{"qwen3-30b-a3b", moeShape{hidden: 2048, experts: 128, topK: 8, ff: 768, pack: true}},
	}
	pool := kernels.NewPool(goruntime.GOMAXPROCS(0))
	b.Cleanup(pool.Close)
	for _, sh := range shapes {
		m, l := newTestMoE(b, sh.shape, kernels.Q8_0)
		s, err := m.NewState(pool, 256, 1, 64)
		if err != nil {
			b.Fatal(err)
		}
		hid := sh.shape.hidden
		x := randFloats(rand.New(rand.NewPCG(3, 4)), 256*hid)
		for _, rows := range []int{1, 8, 256} {
			b.Run(fmt.Sprintf("%s/rows=%d", sh.name, rows), func(b *testing.B) {
				copy(s.xn, x[:rows*hid])
				s.moe(l, rows)
				b.SetBytes(touchedBytes(s, l))
				b.ReportAllocs()
				for b.Loop() {
					copy(s.xn, x[:rows*hid])
					s.moe(l, rows)
				}
			})
		}
	}
}

// touchedBytes returns the bytes of the experts the last moe call used.
func touchedBytes(s *State, l *MoE) int64 {
	var n int64
	for x, e := range l.Experts {
		if s.moeS.start[x+1] > s.moeS.start[x] {
			for _, w := range []*kernels.Matrix{e.Gate, e.Up, e.Down} {
				n += int64(len(w.Data))
			}
		}
	}
	return n
}
