package kernels

import (
	"errors"
	"testing"
)

// TestSplitRows checks that the parts of a split matrix give the rows of
// the whole, for a block format and for MLX affine weights.
func TestSplitRows(t *testing.T) {
	for _, typ := range []DType{Q8_0, MLXAffine} {
		m := randomMatrix(t, newRand(1), typ, 7, 64)
		parts, err := m.SplitRows(2, 4, 1)
		if err != nil {
			t.Fatal(err)
		}
		want, got := make([]float32, 64), make([]float32, 64)
		r := 0
		for _, p := range parts {
			for i := range p.Rows {
				m.Row(r, want)
				p.Row(i, got)
				for j := range want {
					if got[j] != want[j] {
						t.Fatalf("%v: row %d of the parts differs at %d: %v, want %v", typ, r, j, got[j], want[j])
					}
				}
				r++
			}
		}
	}
	if _, err := randomMatrix(t, newRand(2), Q8_0, 7, 64).SplitRows(2, 4); !errors.Is(err, ErrMatrix) {
		t.Errorf("split into 6 of 7 rows: error %v, want ErrMatrix", err)
	}
}
