package kernels

import (
	"errors"
	"testing"
)

func TestNewMatrixRejects(t *testing.T) {
	aff := func(f func(m *Matrix)) Matrix {
		m := Matrix{Type: MLXAffine, Rows: 2, Cols: 64, Bits: 4, GroupSize: 64, ScaleType: BF16,
			Data: make([]byte, 64), Scales: make([]byte, 4), Biases: make([]byte, 4)}
		f(&m)
		return m
	}
	tests := []struct {
		name string
		m    Matrix
	}{
		{"unknown type", Matrix{Type: 99, Rows: 1, Cols: 1, Data: make([]byte, 4)}},
		{"zero rows", Matrix{Type: F32, Rows: 0, Cols: 4}},
		{"negative cols", Matrix{Type: F32, Rows: 1, Cols: -4}},
		{"huge", Matrix{Type: F32, Rows: 1 << 31, Cols: 1 << 31}},
		{"cols not block multiple", Matrix{Type: Q4_0, Rows: 1, Cols: 48, Data: make([]byte, 27)}},
		{"short data", Matrix{Type: Q8_0, Rows: 2, Cols: 32, Data: make([]byte, 67)}},
		{"long data", Matrix{Type: F16, Rows: 2, Cols: 2, Data: make([]byte, 9)}},
		{"K-quant 32 cols", Matrix{Type: Q4_K, Rows: 1, Cols: 32, Data: make([]byte, 18)}},
		{"affine bits", aff(func(m *Matrix) { m.Bits = 3 })},
		{"affine group", aff(func(m *Matrix) { m.GroupSize = 16 })},
		{"affine cols", aff(func(m *Matrix) { m.Cols = 96; m.Data = make([]byte, 96) })},
		{"affine scale type", aff(func(m *Matrix) { m.ScaleType = Q8_0 })},
		{"affine data", aff(func(m *Matrix) { m.Data = m.Data[:63] })},
		{"affine scales", aff(func(m *Matrix) { m.Scales = m.Scales[:2] })},
		{"affine biases", aff(func(m *Matrix) { m.Biases = nil })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewMatrix(tt.m); !errors.Is(err, ErrMatrix) {
				t.Errorf("NewMatrix: err = %v, want ErrMatrix", err)
			}
		})
	}
	if _, err := NewMatrix(aff(func(*Matrix) {})); err != nil {
		t.Errorf("valid affine matrix: %v", err)
	}
}

func TestNewMatrixCopiesUnalignedFloats(t *testing.T) {
	buf := make([]byte, 4*6+1)
	for i := range buf {
		buf[i] = byte(i)
	}
	m, err := NewMatrix(Matrix{Type: F32, Rows: 2, Cols: 3, Data: buf[1:]})
	if err != nil {
		t.Fatal(err)
	}
	if string(m.Data) != string(buf[1:]) {
		t.Fatal("copied data differs")
	}
	if &m.Data[0] == &buf[1] {
		t.Fatal("unaligned F32 data was not copied")
	}
	q, err := NewMatrix(Matrix{Type: Q8_0, Rows: 1, Cols: 32, Data: make([]byte, 35)[1:]})
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Data) != 34 {
		t.Fatal("block data changed")
	}
}

func TestDTypeString(t *testing.T) {
	for _, typ := range allTypes {
		if s := typ.String(); s == "" || s[0] == 'D' {
			t.Errorf("%d has no name: %q", uint8(typ), s)
		}
	}
	if s := DType(200).String(); s != "DType(200)" {
		t.Errorf("unknown type: %q", s)
	}
}

func TestRowOutOfRangePanics(t *testing.T) {
	w := randomMatrix(t, newRand(8), F32, 2, 4)
	defer func() {
		if recover() == nil {
			t.Error("Row(2) on a 2-row matrix did not panic")
		}
	}()
	w.Row(2, make([]float32, 4))
}
