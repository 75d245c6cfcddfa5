package gguf

import (
	"math"
	"math/rand/v2"
	"testing"
)

// halfValue is the value of a half-precision bit pattern by the IEEE 754
// definition, computed in float64.
func halfValue(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, mant := int(h>>10&0x1f), float64(h&0x3ff)
	switch exp {
	case 0x1f:
		if mant != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	case 0:
		return sign * math.Ldexp(mant, -24)
	}
	return sign * math.Ldexp(1+mant/1024, exp-15)
}

// TestF16Exhaustive checks every half value against the definition and the
// round trip through F32ToF16.
func TestF16Exhaustive(t *testing.T) {
	for i := range 1 << 16 {
		h := uint16(i)
		got, want := F16ToF32(h), halfValue(h)
		if math.IsNaN(want) {
			if !math.IsNaN(float64(got)) || !math.IsNaN(float64(F16ToF32(F32ToF16(got)))) {
				t.Fatalf("%#04x: NaN not kept: %g", h, got)
			}
			continue
		}
		if float64(got) != want || math.Signbit(float64(got)) != (h&0x8000 != 0) {
			t.Fatalf("F16ToF32(%#04x) = %g, want %g", h, got, want)
		}
		if back := F32ToF16(got); back != h {
			t.Fatalf("F32ToF16(%g) = %#04x, want %#04x", got, back, h)
		}
	}
}

func TestF32ToF16Rounding(t *testing.T) {
	tests := []struct {
		in   float32
		want uint16
	}{
		{65504, 0x7bff},                 // largest half
		{65519, 0x7bff},                 // below the midpoint to infinity
		{65520, 0x7c00},                 // midpoint, ties to even = infinity
		{1e10, 0x7c00},                  // overflow
		{-1e10, 0xfc00},                 // negative overflow
		{1 + 0x1p-11, 0x3c00},           // tie, to even (1.0)
		{1 + 3*0x1p-11, 0x3c02},         // tie, to even (up)
		{1 + 0x1p-11 + 0x1p-20, 0x3c01}, // just above the tie
		{0x1p-24, 0x0001},               // smallest subnormal
		{0x1p-25, 0x0000},               // tie between 0 and it, to even
		{0x1.8p-25, 0x0001},             // above the tie
		{0x1p-26, 0x0000},               // underflow
		{0x1.ff8p-15, 0x03ff},           // largest subnormal
		{0x1.ffcp-15, 0x0400},           // tie above it, to even: the smallest normal
		{float32(math.Copysign(0, -1)), 0x8000},
	}
	for _, tc := range tests {
		if got := F32ToF16(tc.in); got != tc.want {
			t.Errorf("F32ToF16(%g) = %#04x, want %#04x", tc.in, got, tc.want)
		}
	}
}

// TestF32ToF16Nearest checks on random values that the result is the
// nearest half (neither neighbour is closer).
func TestF32ToF16Nearest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		x := float32(math.Ldexp(r.Float64()*2-1, r.IntN(42)-26)) // |x| < 2¹⁶: finite halves
		if math.Abs(float64(x)) >= 65520 {
			continue
		}
		h := F32ToF16(x)
		d := math.Abs(halfValue(h) - float64(x))
		for _, n := range []uint16{h - 1, h + 1} {
			if n&0x7c00 != 0x7c00 && halfValue(n)*halfValue(h) >= 0 && math.Abs(halfValue(n)-float64(x)) < d {
				t.Fatalf("F32ToF16(%g) = %#04x, but %#04x is closer", x, h, n)
			}
		}
	}
}

func TestBF16(t *testing.T) {
	for i := range 1 << 16 {
		b := uint16(i)
		f := BF16ToF32(b)
		if math.Float32bits(f) != uint32(b)<<16 {
			t.Fatalf("BF16ToF32(%#04x) bits %#08x", b, math.Float32bits(f))
		}
		if back := F32ToBF16(f); back != b && !math.IsNaN(float64(f)) {
			t.Fatalf("F32ToBF16(%g) = %#04x, want %#04x", f, back, b)
		}
	}
	tests := []struct {
		in   uint32 // float32 bits
		want uint16
	}{
		{0x3f808000, 0x3f80}, // tie, to even (down)
		{0x3f818000, 0x3f82}, // tie, to even (up)
		{0x3f808001, 0x3f81}, // above the tie
		{0x7f7fffff, 0x7f80}, // largest float32 rounds to infinity
		{0x7fc00001, 0x7fc0}, // NaN stays NaN
		{0x7f800001, 0x7fc0}, // signalling NaN becomes quiet, not infinity
	}
	for _, tc := range tests {
		if got := F32ToBF16(math.Float32frombits(tc.in)); got != tc.want {
			t.Errorf("F32ToBF16(%#08x) = %#04x, want %#04x", tc.in, got, tc.want)
		}
	}
}
