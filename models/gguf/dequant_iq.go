package gguf

import "math"

// iq4Values is the non-linear codebook shared by IQ4_NL and IQ4_XS.
var iq4Values = [16]float32{-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113}

// IQ4_NL: d f16, 16 bytes of nibbles indexing iq4Values; x = d·value.
// Element j is the low nibble of byte j, element j+16 the high nibble.
func dequantIQ4NL(b []byte, y []float32) {
	d := half(b, 0)
	for j, q := range b[2:18] {
		y[j] = d * iq4Values[q&0xf]
		y[j+16] = d * iq4Values[q>>4]
	}
}

// IQ4_XS: d f16, scales_h u16, scales_l[4], qs[128]; eight sub-blocks of 32
// laid out as IQ4_NL, each with a 6-bit scale (low nibble from scales_l,
// top two bits from scales_h) centred on 32.
func dequantIQ4XS(b []byte, y []float32) {
	d := half(b, 0)
	scalesH := uint16(b[2]) | uint16(b[3])<<8
	scalesL, qs := b[4:8], b[8:136]
	for ib := range 8 {
		ls := int(scalesL[ib/2]>>(4*(ib%2))&0xf) | int(scalesH>>(2*ib)&3)<<4
		dl := d * float32(ls-32)
		q, out := qs[16*ib:16*ib+16], y[32*ib:32*ib+32]
		for j, v := range q {
			out[j] = dl * iq4Values[v&0xf]
			out[j+16] = dl * iq4Values[v>>4]
		}
	}
}

// mxfp4Values are the FP4 E2M1 values of the OCP microscaling format,
// doubled so that they are integers (ggml's kvalues_mxfp4): nibble bit 3 is
// the sign, bits 0–2 index 0, 0.5, 1, 1.5, 2, 3, 4, 6.
var mxfp4Values = [16]int8{0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12}

// e8m0Half returns half of the E8M0 scale e, 2^(e-128): the doubled
// mxfp4Values times it are the E2M1 values times 2^(e-127). The exponent
// 0xff (NaN in the OCP format) is read as 2^127, as ggml reads it.
func e8m0Half(e uint8) float32 {
	if e < 2 {
		return math.Float32frombits(0x00200000 << e) // subnormal 2^-128, 2^-127
	}
	return math.Float32frombits(uint32(e-1) << 23)
}

// MXFP4: e u8 (E8M0 scale), 16 bytes of nibbles indexing mxfp4Values;
// x = value/2 · 2^(e-127). Element j is the low nibble of byte j, element
// j+16 the high nibble, as in IQ4_NL.
func dequantMXFP4(b []byte, y []float32) {
	d := e8m0Half(b[0])
	for j, q := range b[1:17] {
		y[j] = d * float32(mxfp4Values[q&0xf])
		y[j+16] = d * float32(mxfp4Values[q>>4])
	}
}
