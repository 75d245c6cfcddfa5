package kernels

import (
	"encoding/binary"
	"fmt"
	"testing"
)

// TestAffineRepack checks when MLX 4-bit weights take the Q4_0 tile
// kernels (every scale exact in fp16) and that the results then match
// float64 math on the dequantized weights, for row counts that leave
// partial groups and chunks.
func TestAffineRepack(t *testing.T) {
	tiny := f32ToBF16(1e-7) // a BF16 scale below the fp16 normal range
	tests := []struct {
		name       string
		rows, gs   int
		tinyScale  bool
		wantPacked bool
	}{
		{"group 64", 37, 64, false, true},
		{"group 32", 13, 32, false, true},
		{"group 128", 70, 128, false, true},
		{"inexact scale", 9, 64, true, false},
	}
	rng := newRand(21)
	SetAffineInt8(true)
	defer SetAffineInt8(false)
	for _, tt := range tests {
		for _, n := range []int{1, 3, 6} {
			t.Run(fmt.Sprintf("%s/n=%d", tt.name, n), func(t *testing.T) {
				cols := 256
				m := Matrix{Type: MLXAffine, Rows: tt.rows, Cols: cols, Bits: 4, GroupSize: tt.gs, ScaleType: BF16}
				m.Data = make([]byte, tt.rows*cols/2)
				for i := range m.Data {
					m.Data[i] = byte(rng.Uint32())
				}
				g := tt.rows * cols / tt.gs
				m.Scales, m.Biases = make([]byte, 2*g), make([]byte, 2*g)
				for i := range g {
					binary.LittleEndian.PutUint16(m.Scales[2*i:], f32ToBF16(float32(0.001+rng.Float64()*0.02)))
					binary.LittleEndian.PutUint16(m.Biases[2*i:], f32ToBF16(float32(rng.NormFloat64()*0.05)))
				}
				if tt.tinyScale {
					binary.LittleEndian.PutUint16(m.Scales[2*(g-1):], tiny)
				}
				w, err := NewMatrix(m)
				if err != nil {
					t.Fatal(err)
				}
				if hasTiles := fastImpls.gemm[Q4_0].one != nil; (w.packed != nil) != (tt.wantPacked && hasTiles) {
					t.Fatalf("packed = %v, want %v (tile kernels: %v)", w.packed != nil, tt.wantPacked, hasTiles)
				}
				x := randFloats(rng, n*cols, 1)
				out := make([]float32, n*tt.rows)
				p := NewPool(3)
				defer p.Close()
				p.MatMul(w, x, n, out)
				checkMatMul(t, w, dequantMatrix(w), x, n, out, matrixBound(w))
			})
		}
	}
}
