//go:build !noasm

package kernels

import "testing"

// halfTestSets returns the half tile kernels this CPU runs, by name.
func halfTestSets() map[string][2]halfSet {
	sets := map[string][2]halfSet{}
	if hasAVX2 {
		sets["avx2"] = halfAVX2
	}
	if hasAVX512F {
		sets["avx512"] = halfAVX512
	}
	return sets
}

// TestHalfDecodeSameSums checks that the decode kernels give, row for
// row, exactly the sums of the dot product kernels, with row lengths that
// leave tails of 8 and 16 values after the steps of 32, and that they write
// exactly rows outputs.
func TestHalfDecodeSameSums(t *testing.T) {
	if !hasAVX2 {
		t.Skip("no AVX2")
	}
	kernels := []struct {
		typ    DType
		decode func(w *uint16, x *float32, cols, rows int, out *float32, ahead int)
		dot    func(a []uint16, b []float32) float32
	}{
		{F16, halfDecodeF16AVX2, dotF16AVX2},
		{BF16, halfDecodeBF16AVX2, dotBF16AVX2},
	}
	rng := newRand(45)
	for _, k := range kernels {
		for _, cols := range []int{8, 16, 24, 32, 40, 56, 1000, 1024} {
			for _, rows := range []int{1, 2, 7} {
				w := randomMatrix(t, rng, k.typ, rows, cols)
				x := randFloats(rng, cols, 1)
				out := make([]float32, rows+1)
				out[rows] = 12345
				wd := asU16(w.Data)
				k.decode(&wd[0], &x[0], cols, rows, &out[0], halfAhead)
				if out[rows] != 12345 {
					t.Fatalf("%v %d×%d: wrote past the last row", k.typ, rows, cols)
				}
				for r := range rows {
					if want := k.dot(wd[r*cols:(r+1)*cols], x); out[r] != want {
						t.Fatalf("%v %d×%d: row %d = %v, the dot kernel %v", k.typ, rows, cols, r, out[r], want)
					}
				}
			}
		}
	}
}
