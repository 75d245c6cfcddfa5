package kernels

import (
	"fmt"
	"math"
	"testing"
)

// packedCase is one shape of the tile kernel tests.
type packedCase struct{ rows, cols, n int }

// packedCases covers partial groups of rows, odd block counts (a padded
// pair) and activation counts around the four- and eight-column tiles,
// with few activation rows (each group meets every tile in turn) and with
// many (each tile meets the whole chunk).
var packedCases = []packedCase{
	{1, 32, 1}, {3, 64, 2}, {4, 96, 4}, {5, 160, 5}, {7, 32, 9},
	{8, 288, 3}, {13, 320, 8}, {16, 576, 1}, {37, 512, 6},
	{21, 576, 20}, {9, 64, 17}, {5, 64, 3}, {11, 96, 7},
}

// withKernels runs f with k as the kernels in use.
func withKernels(t *testing.T, k *kernelSet, f func()) {
	t.Helper()
	old := current.Load()
	current.Store(k)
	defer current.Store(old)
	f()
}

// packedMatMul returns MatMul(w, x) with the kernels k, checking that
// nothing past the output is written.
func packedMatMul(t *testing.T, k *kernelSet, w *Matrix, x []float32, n int) []float32 {
	t.Helper()
	out := make([]float32, n*w.Rows+guard)
	for i := range out {
		out[i] = guardF32
	}
	p := NewPool(2)
	defer p.Close()
	withKernels(t, k, func() { p.MatMul(w, x, n, out) })
	for _, v := range out[n*w.Rows:] {
		if math.Float32bits(v) != math.Float32bits(guardF32) {
			t.Fatalf("%v %d×%d n=%d: MatMul wrote past its output", w.Type, w.Rows, w.Cols, n)
		}
	}
	return out[:n*w.Rows]
}

// TestPackedMatMulMatchesReference compares the tile kernels of packed
// weights with the reference dot products on the original blocks: the
// integer sums are the same, only the order of the float additions differs.
func TestPackedMatMulMatchesReference(t *testing.T) {
	rng := newRand(31)
	for _, typ := range packedTypes {
		if fastKernels.gemm[typ].one == nil {
			t.Logf("%v: no tile kernels on this CPU", typ)
			continue
		}
		for _, c := range packedCasesFor(typ) {
			t.Run(fmt.Sprintf("%v/%dx%d/n=%d", typ, c.rows, c.cols, c.n), func(t *testing.T) {
				w := randomMatrix(t, rng, typ, c.rows, c.cols)
				if w.packed == nil {
					t.Fatal("NewMatrix did not pack the weights")
				}
				x := randFloats(rng, c.n*c.cols, 1)
				got := packedMatMul(t, &fastKernels, w, x, c.n)
				want := packedMatMul(t, &refKernels, w, x, c.n)
				wf := dequantMatrix(w)
				for i := range c.n {
					xi := x[i*c.cols : (i+1)*c.cols]
					for r := range c.rows {
						scale := absSum(wf[r*c.cols:(r+1)*c.cols], xi)
						if g, w := got[i*c.rows+r], want[i*c.rows+r]; !closeTo(float64(g), float64(w), scale, 1e-5) {
							t.Fatalf("out[%d,%d] = %v, reference %v", i, r, g, w)
						}
					}
				}
			})
		}
	}
}

// TestPackedResultIndependentOfBatch checks that an activation row gets the
// same bits alone as inside a batch (computed by the wide kernel), in
// batches whose last tile is whole, one row short (padded) or one row.
func TestPackedResultIndependentOfBatch(t *testing.T) {
	rng := newRand(32)
	for _, typ := range packedTypes {
		if fastKernels.gemm[typ].one == nil {
			continue
		}
		cols := 2 * typ.blockElems() * 7 / 2 // odd blocks: a padded pair
		w := randomMatrix(t, rng, typ, 13, cols)
		for _, n := range []int{3, 7, 9} {
			x := randFloats(rng, n*cols, 1)
			batch := packedMatMul(t, &fastKernels, w, x, n)
			for i := range n {
				alone := packedMatMul(t, &fastKernels, w, x[i*cols:(i+1)*cols], 1)
				for r, v := range alone {
					if math.Float32bits(v) != math.Float32bits(batch[i*13+r]) {
						t.Fatalf("%v n=%d row %d of activation %d: %v alone, %v in a batch", typ, n, r, i, v, batch[i*13+r])
					}
				}
			}
		}
	}
}
