package kernels

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
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
		hugeBias   bool // a bias beyond the fp16 range: float32 biases
		wantPacked bool
	}{
		{"group 64", 37, 64, false, false, true},
		{"group 32", 13, 32, false, false, true},
		{"group 128", 70, 128, false, false, true},
		{"float32 biases", 21, 64, false, true, true},
		{"inexact scale", 9, 64, true, false, false},
	}
	rng := newRand(21)
	withAffineInt8(t, true)
	for _, tt := range tests {
		for _, n := range []int{1, 3, 6} {
			t.Run(fmt.Sprintf("%s/n=%d", tt.name, n), func(t *testing.T) {
				cols := 256
				m := affineMatrix(rng, tt.rows, cols, tt.gs)
				if tt.tinyScale {
					binary.LittleEndian.PutUint16(m.Scales[len(m.Scales)-2:], tiny)
				}
				if tt.hugeBias {
					binary.LittleEndian.PutUint16(m.Biases[2:], f32ToBF16(1e5))
				}
				w, err := NewMatrix(m)
				if err != nil {
					t.Fatal(err)
				}
				if hasTiles := fastKernels.gemm[Q4_0].one != nil; (w.packed != nil) != (tt.wantPacked && hasTiles) {
					t.Fatalf("packed = %v, want %v (tile kernels: %v)", w.packed != nil, tt.wantPacked, hasTiles)
				}
				if w.packed != nil && (w.affineBias != nil) != tt.hugeBias {
					t.Fatalf("float32 biases = %v, want %v", w.affineBias != nil, tt.hugeBias)
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

// affineMatrix returns a random 4-bit MLX matrix with BF16 scales of a
// normal fp16 size (so that it can be repacked) and biases.
func affineMatrix(rng *rand.Rand, rows, cols, gs int) Matrix {
	m := Matrix{Type: MLXAffine, Rows: rows, Cols: cols, Bits: 4, GroupSize: gs, ScaleType: BF16}
	m.Data = make([]byte, rows*cols/2)
	for i := range m.Data {
		m.Data[i] = byte(rng.Uint32())
	}
	g := rows * cols / gs
	m.Scales, m.Biases = make([]byte, 2*g), make([]byte, 2*g)
	for i := range g {
		binary.LittleEndian.PutUint16(m.Scales[2*i:], f32ToBF16(float32(0.001+rng.Float64()*0.02)))
		binary.LittleEndian.PutUint16(m.Biases[2*i:], f32ToBF16(float32(rng.NormFloat64()*0.05)))
	}
	return m
}

// TestAffineRowBF16 checks the fused 4-bit BF16 row kernel against the
// group sums and the combination it replaces (float32 sums in another
// order: within 1e-6 of Σ|w·x|).
func TestAffineRowBF16(t *testing.T) {
	k := impl()
	if k.affineRow4BF16 == nil {
		t.Skip("no fused MLX row kernel on this CPU or build")
	}
	rng := newRand(22)
	for _, gs := range []int{32, 64, 128} {
		w := randomMatrix(t, rng, MLXAffine, 3, 512)
		w.GroupSize = gs
		groups := w.Cols / gs
		w.Scales, w.Biases = make([]byte, 2*3*groups), make([]byte, 2*3*groups)
		for i := range 3 * groups {
			binary.LittleEndian.PutUint16(w.Scales[2*i:], f32ToBF16(float32(rng.NormFloat64()*0.01)))
			binary.LittleEndian.PutUint16(w.Biases[2*i:], f32ToBF16(float32(rng.NormFloat64()*0.05)))
		}
		x := randFloats(rng, w.Cols, 1)
		xsum := make([]float32, groups)
		for g := range xsum {
			for _, v := range x[g*gs : (g+1)*gs] {
				xsum[g] += v
			}
		}
		sc, bi, gsum := make([]float32, groups), make([]float32, groups), make([]float32, groups)
		for r := range w.Rows {
			w.affineParams(r, sc, bi)
			k.affineGroups(w.rowData(r), 4, x, gs, gsum)
			want := affineCombine(gsum, sc, bi, xsum)
			got := k.affineRow4BF16(w.rowData(r), x, gs, asU16(w.Scales)[r*groups:(r+1)*groups], asU16(w.Biases)[r*groups:(r+1)*groups], xsum)
			wr := make([]float32, w.Cols)
			w.affineRow(r, wr)
			var mag float64
			for i, v := range wr {
				mag += math.Abs(float64(v) * float64(x[i]))
			}
			if d := math.Abs(float64(got) - float64(want)); d > 1e-6*mag {
				t.Fatalf("group %d row %d: %v, want %v (±%v)", gs, r, got, want, 1e-6*mag)
			}
		}
	}
}

// TestAffineMatMulAllocs checks that MLX matmuls (fused decode row, batch
// dequantization, repacked tile kernels) allocate nothing once warm.
func TestAffineMatMulAllocs(t *testing.T) {
	rng := newRand(23)
	for _, int8 := range []bool{false, true} {
		SetAffineInt8(int8)
		w, err := NewMatrix(affineMatrix(rng, 64, 512, 64))
		SetAffineInt8(true)
		if err != nil {
			t.Fatal(err)
		}
		if want := int8 && fastKernels.gemm[Q4_0].one != nil; (w.packed != nil) != want {
			t.Fatalf("int8=%v: packed = %v", int8, w.packed != nil)
		}
		p := NewPool(2)
		for _, n := range []int{1, 3} {
			x, out := randFloats(rng, n*w.Cols, 1), make([]float32, n*w.Rows)
			p.MatMul(w, x, n, out)
			if a := testing.AllocsPerRun(20, func() { p.MatMul(w, x, n, out) }); a != 0 {
				t.Errorf("int8=%v n=%d: %v allocations per MatMul", int8, n, a)
			}
		}
		p.Close()
	}
}

// withAffineInt8 sets the MLX integer path for the rest of the test and
// restores the default (on) after it.
func withAffineInt8(t *testing.T, on bool) {
	t.Helper()
	SetAffineInt8(on)
	t.Cleanup(func() { SetAffineInt8(true) })
}
