package kernels

import "math"

// f16ToF32 converts an IEEE 754 half to float32 exactly.
func f16ToF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f: // Inf, NaN
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp != 0: // normal
		return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
	case man == 0:
		return math.Float32frombits(sign)
	}
	// Subnormal: man × 2^-24, exact in float32.
	f := float32(man) * (1.0 / (1 << 24))
	if sign != 0 {
		return -f
	}
	return f
}

// f32ToF16 converts a float32 to an IEEE 754 half, rounding to nearest even,
// the way F16C's VCVTPS2PH does (NaNs stay NaN, quiet).
func f32ToF16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	man := b & 0x7fffff
	if exp == 0xff {
		if man != 0 {
			return sign | 0x7e00 | uint16(man>>13)
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15
	if e >= 0x1f {
		return sign | 0x7c00
	}
	if e <= 0 {
		if e < -10 {
			return sign // rounds to ±0
		}
		man |= 0x800000
		shift := uint32(14 - e)
		h := man >> shift
		rem := man & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || (rem == half && h&1 == 1) {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(e)<<10 | man>>13
	rem := man & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && h&1 == 1) {
		h++ // may carry into the exponent, up to Inf: still correct
	}
	return sign | uint16(h)
}

// bf16ToF32 converts a bfloat16 to float32 exactly.
func bf16ToF32(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// f32ToBF16 converts a float32 to bfloat16, rounding to nearest even (NaNs stay NaN).
func f32ToBF16(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 0x40
	}
	return uint16((b + 0x7fff + (b>>16)&1) >> 16)
}

// F16ToF32 converts IEEE halves to float32: dst[i] = src[i] for i < len(src).
// dst must be at least as long as src.
func F16ToF32(dst []float32, src []uint16) {
	dst = dst[:len(src)]
	impl().f16ToF32(dst, src)
}

// F32ToF16 converts float32 to IEEE halves, rounding to nearest even, for
// i < len(src). dst must be at least as long as src.
func F32ToF16(dst []uint16, src []float32) {
	dst = dst[:len(src)]
	impl().f32ToF16(dst, src)
}

func f16ToF32Ref(dst []float32, src []uint16) {
	for i, h := range src {
		dst[i] = f16ToF32(h)
	}
}

func f32ToF16Ref(dst []uint16, src []float32) {
	for i, f := range src {
		dst[i] = f32ToF16(f)
	}
}

// RoundBF16 returns f rounded to the nearest bfloat16 (ties to even).
func RoundBF16(f float32) float32 { return bf16ToF32(f32ToBF16(f)) }

// RoundF16 returns f rounded to the nearest IEEE half (ties to even).
func RoundF16(f float32) float32 { return f16ToF32(f32ToF16(f)) }
