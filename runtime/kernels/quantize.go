package kernels

import (
	"encoding/binary"
	"math"
)

// Activation quantization, as ggml-cpu does it on x86 (AVX2): for Q8_0 and
// Q8_1 the scale is d = amax/127, the values are x·(127/amax) rounded to
// nearest even; for Q8_K it is quantize_row_q8_K_ref: the element of largest
// magnitude maps to -127, the values are rounded to nearest even and clamped
// at 127, and bsums holds the sums of each 16 values.

func abs32(v float32) float32 { return math.Float32frombits(math.Float32bits(v) &^ (1 << 31)) }

func absMax(x []float32) float32 {
	var m float32
	for _, v := range x {
		if a := abs32(v); a > m {
			m = a
		}
	}
	return m
}

// roundEven rounds to the nearest integer, ties to even (as VROUNDPS with
// _MM_ROUND_NEAREST and as ggml's nearest_int). It is exact for |f| < 2^22:
// adding 1.5·2^23 leaves the rounded integer in the low mantissa bits.
func roundEven(f float32) int32 {
	v := f + 12582912
	return int32(math.Float32bits(v)&0x7fffff) - 0x400000
}

// quantizeQ8_32 writes one 32-element block: fp16 d at 0, qs at off; it
// returns the float32 scale (before its rounding to fp16) and the sum of the
// quantized values.
func quantizeQ8_32(dst []byte, x []float32, off int) (float32, int32) {
	amax := absMax(x[:qk])
	d := amax / 127
	binary.LittleEndian.PutUint16(dst, f32ToF16(d))
	var id float32
	if amax != 0 {
		id = 127 / amax
	}
	var sum int32
	qs := dst[off : off+qk]
	for j, v := range x[:qk] {
		q := roundEven(float32(v * id))
		qs[j] = byte(int8(q))
		sum += q
	}
	return d, sum
}

// quantizeQ8_0Ref quantizes len(src) (a multiple of 32) floats into Q8_0 blocks.
func quantizeQ8_0Ref(dst []byte, src []float32) {
	for i := 0; i+qk <= len(src); i += qk {
		quantizeQ8_32(dst[i/qk*q8_0:], src[i:], 2)
	}
}

// quantizeQ8_1Ref quantizes into Q8_1 blocks: as Q8_0 plus s = d·Σqs in fp16.
func quantizeQ8_1Ref(dst []byte, src []float32) {
	for i := 0; i+qk <= len(src); i += qk {
		b := dst[i/qk*q8_1:]
		d, sum := quantizeQ8_32(b, src[i:], 4)
		binary.LittleEndian.PutUint16(b[2:], f32ToF16(d*float32(sum)))
	}
}

// quantizeQ8_KRef quantizes len(src) (a multiple of 256) floats into Q8_K blocks.
func quantizeQ8_KRef(dst []byte, src []float32) {
	for i := 0; i+qkK <= len(src); i += qkK {
		quantizeQ8_KBlock(dst[i/qkK*q8K:][:q8K], src[i:i+qkK])
	}
}

func quantizeQ8_KBlock(b []byte, x []float32) {
	var max, amax float32
	for _, v := range x {
		if a := abs32(v); a > amax {
			amax, max = a, v
		}
	}
	if amax == 0 {
		clear(b)
		return
	}
	iscale := -127 / max
	qs := b[4 : 4+qkK]
	for j, v := range x {
		qs[j] = byte(int8(min(127, roundEven(float32(iscale*v)))))
	}
	for j := 0; j < qkK/16; j++ {
		var s int16
		for _, q := range qs[j*16 : j*16+16] {
			s += int16(int8(q))
		}
		binary.LittleEndian.PutUint16(b[4+qkK+2*j:], uint16(s))
	}
	binary.LittleEndian.PutUint32(b, math.Float32bits(1/iscale))
}

// quantizePairsRef quantizes len(src) (a multiple of 32) floats as ggml's
// Q8_0 blocks, laid out in pairs of blocks A, B for the packed tile kernels
// (a last odd block is paired with a zero block). Each pair takes pairAct
// bytes:
//
//	0:  values 0–15 of A, 0–15 of B (int8)
//	32: values 16–31 of A, 16–31 of B
//	64: the scale of A four times, then that of B (float32 of the fp16 scale)
//	96: eight int32 corrections, −8 times the sum of the values that meet
//	    lane j of a 32-byte dot product: bytes 4j to 4j+3 of both halves
//
// The corrections take the offset of unsigned weights back out lane by
// lane (×16 for Q8_0's 128), so every lane holds the same integer whatever
// instructions computed it.
func quantizePairsRef(dst []byte, src []float32) {
	var blk [q8_0]byte
	nb := len(src) / qk
	for p := range pairs(len(src)) {
		out := dst[p*pairAct : (p+1)*pairAct]
		for h := range 2 {
			clear(blk[:])
			if b := 2*p + h; b < nb {
				quantizeQ8_32(blk[:], src[b*qk:], 2)
			}
			copy(out[16*h:16*h+16], blk[2:18])
			copy(out[32+16*h:32+16*h+16], blk[18:34])
			d := math.Float32bits(half(blk[:]))
			for i := range 4 {
				binary.LittleEndian.PutUint32(out[64+16*h+4*i:], d)
			}
		}
		for j := range 8 {
			var sum int32
			for i := range 4 {
				sum += int32(int8(out[4*j+i])) + int32(int8(out[32+4*j+i]))
			}
			binary.LittleEndian.PutUint32(out[96+4*j:], uint32(-8*sum))
		}
	}
}
