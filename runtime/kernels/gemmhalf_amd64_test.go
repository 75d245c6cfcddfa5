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

// TestHalfDecodeSameSums checks that the F16 decode kernel gives, row for
// row, exactly the sums of the dot product kernel, with row lengths that
// leave a tail of 8 values after the steps of 32, and that it writes
// exactly rows outputs.
func TestHalfDecodeSameSums(t *testing.T) {
	if !hasAVX2 {
		t.Skip("no AVX2")
	}
	rng := newRand(45)
	for _, cols := range []int{8, 24, 32, 40, 1000, 1024} {
		for _, rows := range []int{1, 2, 7} {
			w := randomMatrix(t, rng, F16, rows, cols)
			x := randFloats(rng, cols, 1)
			out := make([]float32, rows+1)
			out[rows] = 12345
			wd := asU16(w.Data)
			halfDecodeF16AVX2(&wd[0], &x[0], cols, rows, &out[0], halfAhead)
			if out[rows] != 12345 {
				t.Fatalf("%d×%d: wrote past the last row", rows, cols)
			}
			for r := range rows {
				if want := dotF16AVX2(wd[r*cols:(r+1)*cols], x); out[r] != want {
					t.Fatalf("%d×%d: row %d = %v, the dot kernel %v", rows, cols, r, out[r], want)
				}
			}
		}
	}
}
