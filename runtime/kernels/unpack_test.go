package kernels

import (
	"fmt"
	"testing"
)

func TestPackedRowMatchesData(t *testing.T) {
	tests := []struct {
		typ        DType
		rows, cols int
	}{
		{Q4_0, 8, 64},
		{Q4_0, 7, 96}, // a padded group and an odd number of blocks
		{Q8_0, 5, 32},
		{Q8_0, 12, 160},
		{Q4_K, 6, 512},
		{Q6_K, 5, 256},
		{MXFP4, 7, 96},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%v_%dx%d", tt.typ, tt.rows, tt.cols), func(t *testing.T) {
			w := randomMatrix(t, newRand(7), tt.typ, tt.rows, tt.cols)
			if !w.Packed() {
				t.Skip("no tile kernels for this type on this CPU")
			}
			if w.PackedBytes() == 0 {
				t.Fatal("packed matrix reports no packed bytes")
			}
			want := make([]float32, tt.cols)
			got := make([]float32, tt.cols)
			for r := range tt.rows {
				if tt.typ.blockElems() == qk {
					dequant32(tt.typ, w.rowData(r), want)
				} else {
					dequantK(tt.typ, w.rowData(r), want)
				}
				if !w.packedRow(r, got) {
					t.Fatalf("row %d: packedRow refused a packed %v matrix", r, tt.typ)
				}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("row %d col %d: %v from the packed copy, %v from Data", r, i, got[i], want[i])
					}
				}
			}
		})
	}
}

func TestPackedRowRefuses(t *testing.T) {
	for _, typ := range []DType{F16, Q5_K} {
		w := randomMatrix(t, newRand(3), typ, 4, 256)
		if w.packedRow(0, make([]float32, 256)) {
			t.Errorf("%v: packedRow claimed a row of a type it cannot unpack", typ)
		}
	}
}
