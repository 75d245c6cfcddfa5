package gguf

import "math"

// F16ToF32 converts an IEEE 754 half-precision value to float32, exactly
// (subnormals, infinities and NaNs included).
func F16ToF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // infinity or NaN
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp != 0: // normal
		return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
	}
	// zero or subnormal: mant × 2⁻²⁴, exact in float32.
	f := float32(mant) * (1.0 / (1 << 24))
	if sign != 0 {
		return -f
	}
	return f
}

// F32ToF16 converts a float32 to half precision, rounding to nearest even.
// Values too large become infinity; NaNs stay NaN.
func F32ToF16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	mant := b & 0x7fffff
	if exp == 0xff {
		if mant != 0 {
			return sign | 0x7e00 | uint16(mant>>13)
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15
	switch {
	case e >= 0x1f:
		return sign | 0x7c00
	case e <= 0: // subnormal half, or zero
		if e < -10 {
			return sign
		}
		m := mant | 0x800000
		return sign | uint16(roundShift(m, uint(14-e)))
	}
	// A carry out of the mantissa correctly bumps the exponent (up to infinity).
	return sign | uint16(roundShift(uint32(e)<<23|mant, 13))
}

// roundShift returns x >> s rounded to nearest, ties to even.
func roundShift(x uint32, s uint) uint32 {
	q := x >> s
	rem := x & (1<<s - 1)
	half := uint32(1) << (s - 1)
	if rem > half || (rem == half && q&1 == 1) {
		q++
	}
	return q
}

// BF16ToF32 converts a bfloat16 value to float32 (exact).
func BF16ToF32(b uint16) float32 { return math.Float32frombits(uint32(b) << 16) }

// F32ToBF16 converts a float32 to bfloat16, rounding to nearest even; NaNs
// stay NaN.
func F32ToBF16(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 0x40
	}
	return uint16(roundShift(b, 16)) // a carry may reach infinity, as it should
}
