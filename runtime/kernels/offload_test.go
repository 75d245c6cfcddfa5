package kernels

import "testing"

// fakeOffload takes the products of F16 matrices, computed as sums of the
// dequantised rows, and counts them.
type fakeOffload struct{ took int }

func (f *fakeOffload) MatMul(w *Matrix, x []float32, n int, out []float32) bool {
	if w.Type != F16 {
		return false
	}
	row := make([]float32, w.Cols)
	for r := range w.Rows {
		w.Row(r, row)
		for i := range n {
			out[i*w.Rows+r] = dotRef(row, x[i*w.Cols:(i+1)*w.Cols])
		}
	}
	f.took++
	return true
}

// TestOffloadTakesProducts checks that the offload gets the products it can
// compute, of one vector and of several, the pool the others, with the same
// results as without an offload, and that the caller's slices are left as
// they were.
func TestOffloadTakesProducts(t *testing.T) {
	rng := newRand(7)
	ws := []*Matrix{randomMatrix(t, rng, Q8_0, 40, 64), randomMatrix(t, rng, F16, 24, 64), randomMatrix(t, rng, Q8_0, 8, 64)}
	x := randFloats(rng, 2*64, 1)
	plain, with := NewPool(2), NewPool(2)
	defer plain.Close()
	defer with.Close()
	off := &fakeOffload{}
	with.SetOffload(off)
	for _, n := range []int{1, 2} {
		want, got := make([][]float32, len(ws)), make([][]float32, len(ws))
		for i, w := range ws {
			want[i], got[i] = make([]float32, n*w.Rows), make([]float32, n*w.Rows)
		}
		plain.MatMuls(ws, x, n, want)
		order, outs := append([]*Matrix(nil), ws...), append([][]float32(nil), got...)
		off.took = 0
		with.MatMuls(ws, x, n, got)
		if off.took != 1 {
			t.Errorf("n=%d: the offload took %d products, want 1", n, off.took)
		}
		for i := range ws {
			if ws[i] != order[i] || &got[i][0] != &outs[i][0] {
				t.Fatalf("n=%d: MatMuls changed the caller's slices", n)
			}
			for r := range want[i] {
				if d := want[i][r] - got[i][r]; d > 1e-3 || d < -1e-3 {
					t.Fatalf("n=%d matrix %d row %d: %g with the offload, %g without", n, i, r, got[i][r], want[i][r])
				}
			}
		}
	}
}

// TestMatMulCPUSkipsOffload checks that MatMulCPU leaves an offload that
// could take the product alone and gives exactly the pool's own result.
func TestMatMulCPUSkipsOffload(t *testing.T) {
	rng := newRand(9)
	w := randomMatrix(t, rng, F16, 24, 64)
	x := randFloats(rng, 3*64, 1)
	plain, with := NewPool(2), NewPool(2)
	defer plain.Close()
	defer with.Close()
	off := &fakeOffload{}
	with.SetOffload(off)
	for _, n := range []int{1, 3} {
		want, got := make([]float32, n*w.Rows), make([]float32, n*w.Rows)
		plain.MatMul(w, x, n, want)
		with.MatMulCPU(w, x, n, got)
		if off.took != 0 {
			t.Fatalf("n=%d: the offload took %d products, want none", n, off.took)
		}
		for r := range want {
			if got[r] != want[r] {
				t.Fatalf("n=%d row %d: %g, the pool alone %g", n, r, got[r], want[r])
			}
		}
	}
}
