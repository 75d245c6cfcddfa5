package kernels

import (
	"fmt"
	"math"
	"testing"
)

// TestQ5BlockToQ8Exact checks that a Q5_0 block and its Q8_0 form hold the
// same values, bit for bit.
func TestQ5BlockToQ8Exact(t *testing.T) {
	rng := newRand(51)
	src := make([]byte, 64*q5_0)
	randomBlocks(rng, Q5_0, src)
	dst := make([]byte, 64*q8_0)
	for b := range 64 {
		q5BlockToQ8(dst[b*q8_0:(b+1)*q8_0], src[b*q5_0:(b+1)*q5_0])
	}
	want, got := make([]float32, 64*qk), make([]float32, 64*qk)
	dequant32(Q5_0, src, want)
	dequant32(Q8_0, dst, got)
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("value %d: Q8_0 form %v, Q5_0 %v", i, got[i], want[i])
		}
	}
}

// TestQ5_0OnTiles checks a Q5_0 matrix on the Q8_0 tile kernels against
// the row kernels of its stored form: rows read from the packed copy are
// the stored values, and matmuls agree to float rounding (the integer sums
// are the same).
func TestQ5_0OnTiles(t *testing.T) {
	if fastKernels.gemm[Q8_0].one == nil {
		t.Skip("no Q8_0 tile kernels on this CPU or build")
	}
	rng := newRand(52)
	for _, shape := range [][2]int{{37, 512}, {64, 576}, {5, 32}} {
		t.Run(fmt.Sprintf("%dx%d", shape[0], shape[1]), func(t *testing.T) {
			w := randomMatrix(t, rng, Q5_0, shape[0], shape[1])
			if !w.Packed() {
				t.Fatal("Q5_0 matrix not packed")
			}
			row, want := make([]float32, w.Cols), make([]float32, w.Cols)
			for r := range w.Rows {
				w.Row(r, row)
				dequant32(Q5_0, w.rowData(r), want)
				for i := range row {
					if row[i] != want[i] {
						t.Fatalf("row %d value %d: packed %v, stored %v", r, i, row[i], want[i])
					}
				}
			}
			for _, n := range []int{1, 4, 7} {
				x := randFloats(rng, n*w.Cols, 1)
				got, ref := make([]float32, n*w.Rows), make([]float32, n*w.Rows)
				p := NewPool(2)
				p.MatMul(w, x, n, got)
				SetReference(true)
				p.MatMul(w, x, n, ref)
				SetReference(false)
				p.Close()
				for i := range got {
					if d := math.Abs(float64(got[i] - ref[i])); d > 1e-4*(1+math.Abs(float64(ref[i]))) {
						t.Fatalf("n=%d out[%d] = %v on the tiles, %v on the Q5_0 rows", n, i, got[i], ref[i])
					}
				}
			}
		})
	}
}
