package gguf

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
)

// e2m1 decodes a 4-bit FP4 E2M1 code as the OCP microscaling spec defines
// it: sign bit 3, a two-bit exponent with bias 1, one mantissa bit; exponent
// 0 is subnormal (0 or 0.5).
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

// genMXFP4 builds one MXFP4 block: an E8M0 scale byte (2^(e-127)) and 32
// E2M1 codes packed as nibbles (element j low, element j+16 high).
func genMXFP4(r *rand.Rand, e *enc) ([]float64, float64) {
	sc := 100 + r.IntN(50)
	e.u8(uint8(sc))
	q := ints(r, 32, 16)
	nibbles(e, q)
	d := math.Ldexp(1, sc-127)
	return mapInts(q, func(n, v int) float64 { return e2m1(v) * d }), 6 * d
}

func init() { blockGens[TypeMXFP4] = genMXFP4 }

// TestMXFP4Spec checks the dequantization of hand-written blocks against
// values worked out from the format: the E2M1 table, the scale's extremes
// (subnormal 2^-127 and 2^-126, 2^0, 2^120) and the nibble order.
func TestMXFP4Spec(t *testing.T) {
	want := []float64{0, 0.5, 1, 1.5, 2, 3, 4, 6, 0, -0.5, -1, -1.5, -2, -3, -4, -6}
	for c, w := range want {
		if e2m1(c) != w {
			t.Fatalf("e2m1(%d) = %g, want %g", c, e2m1(c), w)
		}
	}
	cases := []struct {
		e     uint8
		scale float64
	}{{127, 1}, {128, 2}, {120, 1.0 / 128}, {0, math.Ldexp(1, -127)}, {1, math.Ldexp(1, -126)}, {247, math.Ldexp(1, 120)}}
	for _, tc := range cases {
		// Byte j holds code j (low) and code 15-j (high).
		blk := []byte{tc.e}
		for j := range 16 {
			blk = append(blk, byte(j|(15-j)<<4))
		}
		got := make([]float32, 32)
		if err := Dequantize(TypeMXFP4, blk, got); err != nil {
			t.Fatal(err)
		}
		for j := range 16 {
			lo, hi := want[j]*tc.scale, want[15-j]*tc.scale
			if float64(got[j]) != lo || float64(got[j+16]) != hi {
				t.Fatalf("e=%d element %d/%d: %g %g, want %g %g", tc.e, j, j+16, got[j], got[j+16], lo, hi)
			}
		}
	}
}

// TestMXFP4Tensor round-trips a hand-built MXFP4 tensor through a GGUF file:
// its size, its bytes, and its values.
func TestMXFP4Tensor(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 1))
	e := new(enc)
	var want []float64
	for range 2 * 3 { // 2 rows of 96 values
		w, _ := genMXFP4(r, e)
		want = append(want, w...)
	}
	m := testModel{tensors: []testTensor{
		{"blk.0.ffn_down_exps.weight", []uint64{96, 2}, TypeMXFP4, e.b},
		{"after", []uint64{2}, TypeF32, f32Bytes(1, 2)},
	}}
	f, err := Parse(m.build(), "mxfp4.gguf")
	if err != nil {
		t.Fatal(err)
	}
	ti, ok := f.Tensor("blk.0.ffn_down_exps.weight")
	if !ok || ti.Type != TypeMXFP4 || ti.Size != 6*17 || ti.Elements() != 192 {
		t.Fatalf("tensor %+v", ti)
	}
	if !bytes.Equal(f.TensorData(ti), e.b) {
		t.Fatal("TensorData differs")
	}
	got := dequantTensor(t, f, ti)
	for i, w := range want {
		if float64(got[i]) != w {
			t.Fatalf("value %d: %g, want %g", i, got[i], w)
		}
	}
	// A row that is not a whole number of blocks is refused.
	bad := testModel{tensors: []testTensor{{"w", []uint64{48, 2}, TypeMXFP4, make([]byte, 3*17)}}}
	if _, err := Parse(bad.build(), "bad.gguf"); err == nil {
		t.Error("48-column MXFP4 tensor accepted")
	}
}
