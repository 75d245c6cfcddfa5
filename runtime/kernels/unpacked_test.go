package kernels

import (
	"fmt"
	"testing"
)

// TestMatMulUnpacked checks that a matrix made without its packed copy
// keeps its stored data only and computes the same products, within the
// bound of its format, as the float computation; and that Pack then makes
// the copy NewMatrix makes, with the same products.
func TestMatMulUnpacked(t *testing.T) {
	rng := newRand(11)
	for _, typ := range allTypes {
		for _, n := range []int{1, 6} {
			t.Run(fmt.Sprintf("%v/n=%d", typ, n), func(t *testing.T) {
				rows, cols := 21, 256
				packed := randomMatrix(t, rng, typ, rows, cols)
				w, err := NewMatrixUnpacked(Matrix{Type: typ, Rows: rows, Cols: cols, Data: packed.Data,
					Bits: packed.Bits, GroupSize: packed.GroupSize, Scales: packed.Scales, Biases: packed.Biases, ScaleType: packed.ScaleType})
				if err != nil {
					t.Fatal(err)
				}
				if w.Packed() || w.affinePacked() {
					t.Fatal("NewMatrixUnpacked made a packed copy")
				}
				x := randFloats(rng, n*cols, 1)
				out := make([]float32, n*rows)
				p := NewPool(2)
				defer p.Close()
				p.MatMul(w, x, n, out)
				checkMatMul(t, w, dequantMatrix(w), x, n, out, matmulBound(typ))
				if w.Pack() != (packed.Packed() || packed.affinePacked()) {
					t.Fatalf("Pack made a copy: %v, NewMatrix: %v", w.Packed() || w.affinePacked(), packed.Packed() || packed.affinePacked())
				}
				p.MatMul(w, x, n, out)
				checkMatMul(t, w, dequantMatrix(w), x, n, out, matrixBound(w))
			})
		}
	}
}
