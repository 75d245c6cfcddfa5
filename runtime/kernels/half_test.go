package kernels

import (
	"math"
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

// TestF16RoundTripAllHalves checks every half against the definition and
// the round trip through f32ToF16.
func TestF16RoundTripAllHalves(t *testing.T) {
	for h := range 1 << 16 {
		f := f16ToF32(uint16(h))
		if want := halfValue(uint16(h)); f == f && (float64(f) != want || math.Signbit(float64(f)) != (h&0x8000 != 0)) {
			t.Fatalf("f16ToF32(%#04x) = %g, want %g", h, f, want)
		}
		back := f32ToF16(f)
		if f != f { // NaN: must stay NaN
			if back&0x7c00 != 0x7c00 || back&0x3ff == 0 {
				t.Fatalf("NaN %#04x came back as %#04x", h, back)
			}
			continue
		}
		if back != uint16(h) {
			t.Fatalf("half %#04x -> %v -> %#04x", h, f, back)
		}
	}
}

// TestF32ToF16Nearest checks rounding against the two neighbouring halves:
// the nearest wins, and a tie goes to the even one.
func TestF32ToF16Nearest(t *testing.T) {
	rng := newRand(1)
	for range 200000 {
		// Spread over normal, subnormal and overflowing magnitudes.
		f := float32(math.Ldexp(rng.Float64()*2-1, rng.IntN(40)-26))
		h := f32ToF16(f)
		got := float64(f16ToF32(h))
		if math.IsInf(got, 0) {
			if math.Abs(float64(f)) < 65520 {
				t.Fatalf("%v overflowed to %v", f, got)
			}
			continue
		}
		for _, nb := range []uint16{h + 1, h - 1} {
			alt := float64(f16ToF32(nb))
			if math.IsNaN(alt) || math.IsInf(alt, 0) || (h&0x7fff == 0 && nb == h-1) {
				continue
			}
			dg, da := math.Abs(got-float64(f)), math.Abs(alt-float64(f))
			if da < dg || (da == dg && h&1 == 1) {
				t.Fatalf("f32ToF16(%v) = %#04x (%v), but %#04x (%v) is nearer or even", f, h, got, nb, alt)
			}
		}
	}
}

func TestF32ToF16Ties(t *testing.T) {
	tests := []struct {
		in   float32
		want uint16
	}{
		{1 + 1.0/2048, 0x3c00},           // halfway between 1 and next: to even (1)
		{1 + 3.0/2048, 0x3c02},           // halfway, odd below: up
		{65520, 0x7c00},                  // rounds to Inf
		{65519, 0x7bff},                  // largest finite
		{float32(math.Ldexp(1, -25)), 0}, // half of the smallest subnormal: to even (0)
		{float32(math.Ldexp(3, -26)), 1}, // above half: up
		{float32(math.Ldexp(3, -25)), 2}, // 1.5 subnormal units: to even (2)
		{float32(math.Inf(-1)), 0xfc00},
		{-0.0, 0x0000},
	}
	for _, tt := range tests {
		if got := f32ToF16(tt.in); got != tt.want {
			t.Errorf("f32ToF16(%v) = %#04x, want %#04x", tt.in, got, tt.want)
		}
	}
}

func TestBF16(t *testing.T) {
	for h := range 1 << 16 {
		f := bf16ToF32(uint16(h))
		if f != f {
			continue
		}
		if back := f32ToBF16(f); back != uint16(h) {
			t.Fatalf("bf16 %#04x -> %v -> %#04x", h, f, back)
		}
	}
	if got := f32ToBF16(math.Float32frombits(0x3f808000)); got != 0x3f80 {
		t.Errorf("tie to even: got %#04x, want 0x3f80", got)
	}
	if got := f32ToBF16(math.Float32frombits(0x3f818000)); got != 0x3f82 {
		t.Errorf("tie to even (odd): got %#04x, want 0x3f82", got)
	}
}

func TestF16SliceConversions(t *testing.T) {
	rng := newRand(2)
	for n := range 70 {
		src := randFloats(rng, n, 3)
		h := make([]uint16, n+1)
		h[n] = 0xbeef
		F32ToF16(h, src)
		if h[n] != 0xbeef {
			t.Fatalf("n=%d: F32ToF16 wrote past len(src)", n)
		}
		back := make([]float32, n)
		F16ToF32(back, h[:n])
		for i := range src {
			if h[i] != f32ToF16(src[i]) || back[i] != f16ToF32(h[i]) {
				t.Fatalf("n=%d i=%d: slice conversion differs from scalar", n, i)
			}
		}
	}
}
