package kernels

import (
	"fmt"
	"math"
	"testing"
)

// TestHalfActsRoundActivations checks that the products of an F16 matrix
// with HalfActs are, bit for bit, the products of activations rounded to
// halves beforehand, for decode (one row) and prefill (the tile kernels),
// alone and together with a matrix that does not round; that the rounding
// changes the products (activations with more precision than a half); and
// that the parts of SplitRows and PickRows round as their matrix does.
func TestHalfActsRoundActivations(t *testing.T) {
	rng := newRand(22)
	cols := 256
	for _, typ := range []DType{F16} {
		for _, n := range []int{1, 7} {
			t.Run(fmt.Sprintf("%v/n=%d", typ, n), func(t *testing.T) {
				x := randFloats(rng, n*cols, 1)
				rounded := make([]float32, len(x))
				roundHalf(rounded, x, make([]uint16, len(x)))
				w := randomMatrix(t, rng, typ, 40, cols)
				plain := randomMatrix(t, rng, F16, 24, cols)
				half := *w
				half.HalfActs = true
				p := NewPool(3)
				defer p.Close()
				want, raw := make([]float32, n*w.Rows), make([]float32, n*w.Rows)
				p.MatMul(w, rounded, n, want)
				p.MatMul(w, x, n, raw)
				got, other := make([]float32, n*w.Rows), make([]float32, n*plain.Rows)
				p.MatMuls([]*Matrix{&half, plain}, x, n, [][]float32{got, other})
				differ := false
				for k := range want {
					if math.Float32bits(got[k]) != math.Float32bits(want[k]) {
						t.Fatalf("out[%d] = %v, %v with the activations rounded beforehand", k, got[k], want[k])
					}
					differ = differ || got[k] != raw[k]
				}
				if !differ {
					t.Error("rounding the activations changed no product")
				}
				alone := make([]float32, n*plain.Rows)
				p.MatMul(plain, x, n, alone)
				for k := range alone {
					if math.Float32bits(other[k]) != math.Float32bits(alone[k]) {
						t.Fatalf("the matrix without HalfActs: out[%d] = %v beside one with, %v alone", k, other[k], alone[k])
					}
				}
				if r := half.RoundedInput(x); !equalBits(r, rounded) {
					t.Error("RoundedInput differs from the rounding of the products")
				}
				parts, err := half.SplitRows(10, 30)
				if err != nil {
					t.Fatal(err)
				}
				picked, err := half.PickRows(12, 3)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range append(parts, picked) {
					if !equalBits(m.RoundedInput(x), rounded) {
						t.Errorf("a part of %d rows does not round its activations", m.Rows)
					}
				}
				part := make([]float32, n*parts[1].Rows)
				p.MatMul(parts[1], x, n, part)
				for i := range n {
					if !equalBits(part[i*30:(i+1)*30], got[i*w.Rows+10:i*w.Rows+40]) {
						t.Errorf("activation row %d: the rows of SplitRows give other products", i)
					}
				}
			})
		}
	}
}

func equalBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// TestHalfActsOnlyF16 checks that HalfActs leaves the products of other
// formats as they were.
func TestHalfActsOnlyF16(t *testing.T) {
	rng := newRand(23)
	x := randFloats(rng, 3*64, 1)
	for _, typ := range []DType{F32, BF16, Q8_0} {
		w := randomMatrix(t, rng, typ, 8, 64)
		flagged := *w
		flagged.HalfActs = true
		p := NewPool(2)
		want, got := make([]float32, 3*8), make([]float32, 3*8)
		p.MatMul(w, x, 3, want)
		p.MatMul(&flagged, x, 3, got)
		p.Close()
		if !equalBits(got, want) {
			t.Errorf("%v: HalfActs changed the products", typ)
		}
	}
}

// TestPickRows checks the rows PickRows copies, and its errors.
func TestPickRows(t *testing.T) {
	rng := newRand(24)
	for _, typ := range []DType{F16, Q4_K, MLXAffine} {
		w := randomMatrix(t, rng, typ, 6, 256)
		m, err := w.PickRows(5, 0, 5)
		if err != nil {
			t.Fatal(err)
		}
		a, b := make([]float32, 256), make([]float32, 256)
		for i, r := range []int{5, 0, 5} {
			w.Row(r, a)
			m.Row(i, b)
			if !equalBits(a, b) {
				t.Errorf("%v: picked row %d differs from row %d", typ, i, r)
			}
		}
		for _, bad := range [][]int{{}, {6}, {-1}} {
			if _, err := w.PickRows(bad...); err == nil {
				t.Errorf("%v: PickRows(%v) gave no error", typ, bad)
			}
		}
	}
}
