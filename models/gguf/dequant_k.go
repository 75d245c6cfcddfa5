package gguf

import (
	"encoding/binary"
	"math"
)

// The K-quants pack 256 values into one super-block with per-sub-block
// scales; the layouts follow ggml's block_q2_K … block_q8_K.

// Q2_K: scales[16] (low nibble scale, high nibble min, per 16 values),
// qs[64] (2-bit quants), d, dmin f16; x = d·sc·q - dmin·m.
// Each 128 values use 32 bytes of qs: four 2-bit planes (shifts 0,2,4,6),
// each plane covering two runs of 16 values (bytes 0–15, then 16–31).
func dequantQ2K(b []byte, y []float32) {
	scales, qs := b[0:16], b[16:80]
	d, dmin := half(b, 80), half(b, 82)
	is := 0
	for half := range 2 {
		q := qs[32*half : 32*half+32]
		for plane := range 4 {
			shift := 2 * plane
			for run := range 2 {
				sc := scales[is]
				is++
				dl, ml := d*float32(sc&0xf), dmin*float32(sc>>4)
				out := y[128*half+32*plane+16*run:]
				for l := range 16 {
					out[l] = dl*float32(q[16*run+l]>>shift&3) - ml
				}
			}
		}
	}
}

// q3Scales unpacks the sixteen 6-bit Q3_K scales: scale j has its low four
// bits in nibble (j%8 of bytes 0–7, low nibble for j < 8, high for j ≥ 8)
// and its top two bits in byte 8 + j%4 at bit 2·(j/4). The result is
// centred: scale - 32.
func q3Scales(s []byte) [16]int {
	var out [16]int
	for j := range 16 {
		low := s[j%8] & 0xf
		if j >= 8 {
			low = s[j%8] >> 4
		}
		high := s[8+j%4] >> (2 * (j / 4)) & 3
		out[j] = int(low|high<<4) - 32
	}
	return out
}

// Q3_K: hmask[32] (high bit), qs[64] (low 2 bits), scales[12] (6-bit,
// signed by -32), d f16; x = d·sc·(q - 4 if the high bit is clear).
func dequantQ3K(b []byte, y []float32) {
	hmask, qs := b[0:32], b[32:96]
	sc := q3Scales(b[96:108])
	d := half(b, 108)
	is := 0
	for half := range 2 {
		q := qs[32*half : 32*half+32]
		for plane := range 4 {
			shift := 2 * plane
			bit := byte(1) << (4*half + plane)
			for run := range 2 {
				dl := d * float32(sc[is])
				is++
				out := y[128*half+32*plane+16*run:]
				for l := range 16 {
					v := int(q[16*run+l] >> shift & 3)
					if hmask[16*run+l]&bit == 0 {
						v -= 4
					}
					out[l] = dl * float32(v)
				}
			}
		}
	}
}

// scaleMinK4 returns the 6-bit scale and min of sub-block j of a Q4_K or
// Q5_K block: j < 4 in the low six bits of bytes j and j+4; j ≥ 4 in the
// nibbles of byte j+4, with the top two bits in the spare bits of bytes
// j-4 (scale) and j (min).
func scaleMinK4(s []byte, j int) (sc, m float32) {
	if j < 4 {
		return float32(s[j] & 63), float32(s[j+4] & 63)
	}
	return float32(s[j+4]&0xf | s[j-4]>>6<<4), float32(s[j+4]>>4 | s[j]>>6<<4)
}

// Q4_K: d, dmin f16, scales[12], qs[128]; eight sub-blocks of 32 values,
// x = d·sc·q - dmin·m. Each 64 values share 32 bytes: low nibbles first.
func dequantQ4K(b []byte, y []float32) { dequantK45(b[:16], nil, b[16:144], y) }

// Q5_K: d, dmin f16, scales[12], qh[32], qs[128]; as Q4_K with a fifth bit
// per value from qh: bit 2j for the low nibbles of chunk j, 2j+1 for the
// high ones.
func dequantQ5K(b []byte, y []float32) { dequantK45(b[:16], b[16:48], b[48:176], y) }

// dequantK45 decodes Q4_K (qh nil) and Q5_K; head holds d, dmin, scales.
func dequantK45(head, qh, qs []byte, y []float32) {
	d, dmin, scales := half(head, 0), half(head, 2), head[4:16]
	for j := range 4 {
		q, out := qs[32*j:32*j+32], y[64*j:64*j+64]
		sc1, m1 := scaleMinK4(scales, 2*j)
		sc2, m2 := scaleMinK4(scales, 2*j+1)
		d1, dm1, d2, dm2 := d*sc1, dmin*m1, d*sc2, dmin*m2
		for l, v := range q {
			lo, hi := v&0xf, v>>4
			if qh != nil {
				lo |= (qh[l] >> (2 * j) & 1) << 4
				hi |= (qh[l] >> (2*j + 1) & 1) << 4
			}
			out[l] = d1*float32(lo) - dm1
			out[l+32] = d2*float32(hi) - dm2
		}
	}
}

// Q6_K: ql[128] (low 4 bits), qh[64] (high 2 bits), scales[16] int8, d f16;
// x = d·sc·(q - 32). Each 128 values use 64 bytes of ql and 32 of qh; value
// l+32k (k = 0..3) takes ql nibble (byte l or l+32, low for k < 2) and qh
// bits 2k..2k+1 of byte l, and scale 8·half + l/16 + 2k.
func dequantQ6K(b []byte, y []float32) {
	d := half(b, 208)
	for h := range 2 {
		ql, qh := b[64*h:64*h+64], b[128+32*h:128+32*h+32]
		sc, out := b[192+8*h:192+8*h+8], y[128*h:128*h+128]
		for l := range 32 {
			q := [4]byte{ql[l] & 0xf, ql[l+32] & 0xf, ql[l] >> 4, ql[l+32] >> 4}
			for k := range 4 {
				v := int(q[k]|(qh[l]>>(2*k)&3)<<4) - 32
				out[l+32*k] = d * float32(int8(sc[l/16+2*k])) * float32(v)
			}
		}
	}
}

// Q8_K: d float32, qs[256] int8, bsums[16] (sums for dot products, not
// needed here); x = d·q.
func dequantQ8K(b []byte, y []float32) {
	d := math.Float32frombits(binary.LittleEndian.Uint32(b))
	for j, q := range b[4:260] {
		y[j] = d * float32(int8(q))
	}
}
