package sample

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortLogitsKeys checks that the key sort of long lists gives the
// order of compareLogits, with the same values: ties, zeros of both signs,
// infinities, tiny and huge logits, negative ids (TopK's fillers).
func TestSortLogitsKeys(t *testing.T) {
	inf := float32(math.Inf(1))
	special := []float32{0, float32(math.Copysign(0, -1)), inf, -inf, math.SmallestNonzeroFloat32,
		-math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32, 1, -1}
	tests := []struct {
		name string
		n    int
		gen  func(r *rand.Rand, i int) TokenLogit
	}{
		{"spread", 5000, func(r *rand.Rand, i int) TokenLogit {
			return TokenLogit{ID: int32(i), Logit: float32(r.NormFloat64() * 5)}
		}},
		{"few values, many ties", 3000, func(r *rand.Rand, i int) TokenLogit {
			return TokenLogit{ID: int32(r.IntN(1 << 20)), Logit: float32(r.IntN(7) - 3)}
		}},
		{"special values", 500, func(r *rand.Rand, i int) TokenLogit {
			return TokenLogit{ID: int32(i - 250), Logit: special[r.IntN(len(special))]}
		}},
		{"just above the threshold", keySortMin, func(r *rand.Rand, i int) TokenLogit {
			return TokenLogit{ID: int32(i), Logit: float32(r.IntN(3))}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			c := make([]TokenLogit, tt.n)
			for i := range c {
				c[i] = tt.gen(r, i)
			}
			want := slices.Clone(c)
			slices.SortFunc(want, compareLogits)
			var keys []uint64
			sortLogitsBuf(c, &keys)
			for i := range c {
				w, g := want[i], c[i]
				if g.ID != w.ID || g.Logit != w.Logit {
					t.Fatalf("entry %d: %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

// BenchmarkSortLogits sorts a nucleus of most of a vocabulary.
func BenchmarkSortLogits(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	src := make([]TokenLogit, 45000)
	for i := range src {
		src[i] = TokenLogit{ID: int32(i), Logit: float32(r.NormFloat64())}
	}
	c := make([]TokenLogit, len(src))
	var keys []uint64
	for _, byKey := range []bool{false, true} {
		name := map[bool]string{false: "compare", true: "keys"}[byKey]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				copy(c, src)
				if byKey {
					sortLogitsBuf(c, &keys)
				} else {
					slices.SortFunc(c, compareLogits)
				}
			}
		})
	}
}
