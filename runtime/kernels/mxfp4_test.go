package kernels

import (
	"errors"
	"math"
	"testing"
)

// e2m1 decodes a 4-bit E2M1 code by the OCP MX specification: sign bit 3,
// two exponent bits with bias 1, one mantissa bit; exponent 0 is subnormal.
func e2m1(code int) float64 {
	sign := 1.0
	if code&8 != 0 {
		sign = -1
	}
	exp, man := code>>1&3, float64(code&1)
	if exp == 0 {
		return sign * man / 2
	}
	return sign * (1 + man/2) * math.Ldexp(1, exp-1)
}

// mxfp4Codes returns 32 codes of a test block: every code twice, in an
// order that differs between the two halves of the block.
func mxfp4Codes(seed int) []int {
	q := make([]int, 32)
	for i := range q {
		q[i] = (i*7 + seed) % 16
	}
	return q
}

// TestMXFP4Row builds a matrix of hand-packed ggml blocks and checks every
// value Row gives against the format's definition: value(code)·2^(e-127),
// element j in the low nibble of byte j and j+16 in its high nibble.
func TestMXFP4Row(t *testing.T) {
	if d, ok := FromGGML(39); !ok || d != MXFP4 {
		t.Fatalf("FromGGML(39) = %v, %v", d, ok)
	}
	exps := []int{127, 120, 134, 0, 1, 2, 200}
	var data []byte
	var want []float64
	for i, e := range exps {
		q := mxfp4Codes(i)
		data = append(data, byte(e))
		for j := range 16 {
			data = append(data, byte(q[j]|q[j+16]<<4))
		}
		for _, c := range q {
			want = append(want, e2m1(c)*math.Ldexp(1, e-127))
		}
	}
	data = append(data, make([]byte, mxfp4)...) // an eighth block: all zero
	want = append(want, make([]float64, 32)...)
	w, err := NewMatrix(Matrix{Type: MXFP4, Rows: 2, Cols: 128, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	got := dequantMatrix(w)
	for i := range want {
		if float64(got[i]) != want[i] {
			t.Fatalf("value %d (block %d): %g, want %g", i, i/32, got[i], want[i])
		}
	}
	if _, err := NewMatrix(Matrix{Type: MXFP4, Rows: 2, Cols: 128, Data: data[1:]}); !errors.Is(err, ErrMatrix) {
		t.Errorf("short data: %v", err)
	}
}

// TestMXFP4FromHF converts blocks in the Hugging Face layout (elements 2i
// and 2i+1 in the low and high nibbles of byte i) and checks the values.
func TestMXFP4FromHF(t *testing.T) {
	const rows, cols = 3, 64
	var blocks, scales []byte
	var want []float64
	for b := range rows * cols / 32 {
		q := mxfp4Codes(b)
		e := 118 + b
		scales = append(scales, byte(e))
		for i := range 16 {
			blocks = append(blocks, byte(q[2*i]|q[2*i+1]<<4))
		}
		for _, c := range q {
			want = append(want, e2m1(c)*math.Ldexp(1, e-127))
		}
	}
	data, err := MXFP4FromHF(blocks, scales)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewMatrix(Matrix{Type: MXFP4, Rows: rows, Cols: cols, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range dequantMatrix(w) {
		if float64(g) != want[i] {
			t.Fatalf("value %d: %g, want %g", i, g, want[i])
		}
	}
	if _, err := MXFP4FromHF(blocks[1:], scales); !errors.Is(err, ErrMatrix) {
		t.Errorf("short blocks: %v", err)
	}
	// The odd rows of the same data read as six rows of 32 values (as the
	// up half of an interleaved gate_up).
	odd, err := MXFP4FromHFRows(blocks, scales, 32, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(odd) != 3*mxfp4 {
		t.Fatalf("odd rows: %d bytes", len(odd))
	}
	for i, r := range []int{1, 3, 5} {
		if string(odd[i*mxfp4:(i+1)*mxfp4]) != string(data[r*mxfp4:(r+1)*mxfp4]) {
			t.Errorf("odd row %d differs from row %d of the whole", i, r)
		}
	}
	for _, bad := range []struct{ cols, first, step int }{{48, 0, 1}, {32, 6, 2}, {32, 0, 0}, {0, 0, 1}, {32, -1, 1}, {128, 0, 1}} {
		if _, err := MXFP4FromHFRows(blocks, scales, bad.cols, bad.first, bad.step); !errors.Is(err, ErrMatrix) {
			t.Errorf("cols %d first %d step %d: %v", bad.cols, bad.first, bad.step, err)
		}
	}
}

// TestMXFP4ScaleExtremes compares the kernels in use with the reference on
// blocks whose scales are the subnormal and largest exponents, which the
// assembly computes on another path (relative to Σ|w·x| alone: the
// results are far below closeTo's absolute slack).
func TestMXFP4ScaleExtremes(t *testing.T) {
	requireFast(t)
	rng := newRand(39)
	for _, e := range []byte{0, 1, 2, 3, 126, 127, 128, 150} {
		wm := randomMatrix(t, rng, MXFP4, 1, 256)
		for b := 0; b < len(wm.Data); b += mxfp4 {
			wm.Data[b] = e
		}
		x := randFloats(rng, 256, 1)
		xq := make([]byte, actQ8_0.rowBytes(256))
		refKernels.quantize[actQ8_0](xq, x)
		var got, want [1]float32
		fastKernels.qdot[MXFP4](wm.Data, xq, 0, got[:])
		refKernels.qdot[MXFP4](wm.Data, xq, 0, want[:])
		scale := absSum(dequantMatrix(wm), dequantAct(actQ8_0, xq, 256))
		if math.Abs(float64(got[0]-want[0])) > 1e-5*scale || scale == 0 {
			t.Errorf("e=%d: %g, reference %g", e, got[0], want[0])
		}
	}
}

// TestMXFP4PackedScales checks that MXFP4 matrices are packed for the tile
// kernels exactly when every scale is exact as an fp16 (2^-24 to 2^15), and
// that both kinds compute the same products as the reference.
func TestMXFP4PackedScales(t *testing.T) {
	if fastKernels.gemm[MXFP4].one == nil {
		t.Skip("no MXFP4 tile kernels on this CPU")
	}
	rng := newRand(40)
	for _, e := range []byte{103, 104, 127, 143, 144} {
		m := randomMatrix(t, rng, MXFP4, 9, 96)
		data := append([]byte(nil), m.Data...)
		data[5*mxfp4] = e // one block of row 1
		w, err := NewMatrix(Matrix{Type: MXFP4, Rows: 9, Cols: 96, Data: data})
		if err != nil {
			t.Fatal(err)
		}
		if want := e >= 104 && e <= 143; w.Packed() != want {
			t.Errorf("e=%d: packed %v, want %v", e, w.Packed(), want)
		}
		x := randFloats(rng, 3*96, 1)
		got := packedMatMul(t, &fastKernels, w, x, 3)
		ref := packedMatMul(t, &refKernels, w, x, 3)
		wf := dequantMatrix(w)
		for i := range 3 {
			for r := range 9 {
				scale := absSum(wf[r*96:(r+1)*96], x[i*96:(i+1)*96])
				if math.Abs(float64(got[i*9+r]-ref[i*9+r])) > 1e-5*scale {
					t.Fatalf("e=%d out[%d,%d] = %v, reference %v", e, i, r, got[i*9+r], ref[i*9+r])
				}
			}
		}
	}
}
