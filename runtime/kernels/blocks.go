package kernels

import (
	"encoding/binary"
	"math"
)

// Decoders of the GGUF block formats into small integers plus scales. They
// are the single description of each layout (ggml-common.h), shared by the
// reference dot products and by dequantization.

func le16(b []byte) uint16  { return binary.LittleEndian.Uint16(b) }
func half(b []byte) float32 { return f16ToF32(binary.LittleEndian.Uint16(b)) }

// decode32 decodes a 32-element block of format t: w[j] = d*q[j] + m. A
// switch rather than a table of functions, so that q stays on the stack.
func decode32(t DType, b []byte, q *[qk]int8) (d, m float32) {
	switch t {
	case Q8_0:
		return decodeQ8_0(b, q)
	case Q4_0:
		return decodeQ4_0(b, q)
	case Q4_1:
		return decodeQ4_1(b, q)
	case Q5_0:
		return decodeQ5_0(b, q)
	case MXFP4:
		return decodeMXFP4(b, q)
	}
	return decodeQ5_1(b, q)
}

// decodeK decodes a 256-element super-block of format t: element e of
// sub-block s = e/16 is w = d*sc[s]*q[e] - dmin*mn[s].
func decodeK(t DType, b []byte, q *[qkK]int8, sc, mn *[16]int32) (d, dmin float32) {
	switch t {
	case Q4_K:
		return decodeQ4_K(b, q, sc, mn)
	case Q5_K:
		return decodeQ5_K(b, q, sc, mn)
	}
	return decodeQ6_K(b, q, sc, mn)
}

func decodeQ8_0(b []byte, q *[qk]int8) (float32, float32) {
	for j, v := range b[2 : 2+qk] {
		q[j] = int8(v)
	}
	return half(b), 0
}

func decodeQ4_0(b []byte, q *[qk]int8) (float32, float32) {
	for j, v := range b[2 : 2+qk/2] {
		q[j] = int8(v&0xf) - 8
		q[j+qk/2] = int8(v>>4) - 8
	}
	return half(b), 0
}

func decodeQ4_1(b []byte, q *[qk]int8) (float32, float32) {
	for j, v := range b[4 : 4+qk/2] {
		q[j] = int8(v & 0xf)
		q[j+qk/2] = int8(v >> 4)
	}
	return half(b), half(b[2:])
}

// decode5 unpacks the 5-bit values of Q5_0/Q5_1: low nibbles in qs, the
// fifth bits in the 32-bit word qh (bit j for element j).
func decode5(qh uint32, qs []byte, q *[qk]int8, off int8) {
	for j, v := range qs[:qk/2] {
		h0 := byte(qh>>j) << 4 & 0x10
		h1 := byte(qh>>(j+12)) & 0x10
		q[j] = int8(v&0xf|h0) - off
		q[j+qk/2] = int8(v>>4|h1) - off
	}
}

func decodeQ5_0(b []byte, q *[qk]int8) (float32, float32) {
	decode5(binary.LittleEndian.Uint32(b[2:]), b[6:], q, 16)
	return half(b), 0
}

func decodeQ5_1(b []byte, q *[qk]int8) (float32, float32) {
	decode5(binary.LittleEndian.Uint32(b[4:]), b[8:], q, 0)
	return half(b), half(b[2:])
}

// scaleMinK4 unpacks the 6-bit scale and min of sub-block j (of 8) of a
// Q4_K/Q5_K super-block from its 12 packed bytes.
func scaleMinK4(j int, s []byte) (sc, m int32) {
	if j < 4 {
		return int32(s[j] & 63), int32(s[j+4] & 63)
	}
	return int32(s[j+4]&0xf | s[j-4]>>6<<4), int32(s[j+4]>>4 | s[j]>>6<<4)
}

// kScales spreads the eight 32-element scales and mins over 16-element slots.
func kScales(s []byte, sc, mn *[16]int32) {
	for j := range 8 {
		a, m := scaleMinK4(j, s)
		sc[2*j], sc[2*j+1] = a, a
		mn[2*j], mn[2*j+1] = m, m
	}
}

func decodeQ4_K(b []byte, q *[qkK]int8, sc, mn *[16]int32) (float32, float32) {
	kScales(b[4:16], sc, mn)
	qs := b[16 : 16+128]
	for j := range 4 {
		for l, v := range qs[32*j : 32*j+32] {
			q[64*j+l] = int8(v & 0xf)
			q[64*j+32+l] = int8(v >> 4)
		}
	}
	return half(b), half(b[2:])
}

func decodeQ5_K(b []byte, q *[qkK]int8, sc, mn *[16]int32) (float32, float32) {
	kScales(b[4:16], sc, mn)
	qh := b[16 : 16+32]
	qs := b[48 : 48+128]
	for j := range 4 {
		for l, v := range qs[32*j : 32*j+32] {
			h := qh[l] >> (2 * j)
			q[64*j+l] = int8(v&0xf | h&1<<4)
			q[64*j+32+l] = int8(v>>4 | h&2<<3)
		}
	}
	return half(b), half(b[2:])
}

func decodeQ6_K(b []byte, q *[qkK]int8, sc, mn *[16]int32) (float32, float32) {
	ql := b[:128]
	qh := b[128:192]
	for s, v := range b[192:208] {
		sc[s] = int32(int8(v))
		mn[s] = 0
	}
	for n := range 2 {
		l0, h0, o := ql[64*n:], qh[32*n:], 128*n
		for l := range 32 {
			h := h0[l]
			q[o+l] = int8(l0[l]&0xf|h&3<<4) - 32
			q[o+l+32] = int8(l0[l+32]&0xf|h>>2&3<<4) - 32
			q[o+l+64] = int8(l0[l]>>4|h>>4&3<<4) - 32
			q[o+l+96] = int8(l0[l+32]>>4|h>>6&3<<4) - 32
		}
	}
	return half(b[208:]), 0
}

// f32At reads the little-endian float32 at b[0:4].
func f32At(b []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b)) }
