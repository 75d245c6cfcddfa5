package kernels

import (
	"encoding/binary"
	"fmt"
	"math"
)

// MXFP4 is the microscaling FP4 format of the OCP MX specification, as ggml
// stores it (block_mxfp4) and gpt-oss ships its experts: blocks of 32
// values, one E8M0 scale byte e then 16 bytes of 4-bit E2M1 codes, element
// j in the low nibble of byte j and element j+16 in the high nibble. A code
// has a sign bit (bit 3), a two-bit exponent and one mantissa bit, so its
// values are ±{0, 0.5, 1, 1.5, 2, 3, 4, 6}; the block's values are those
// times 2^(e-127).
//
// The kernels hold the codes doubled, as the integers of mxfp4Values, and
// halve the scale instead (e8m0Half): a block is then an int8 block with a
// float scale, and its dot product with a Q8_0 activation block is an
// integer sum, as in ggml_vec_dot_mxfp4_q8_0.

// mxfp4Values are the E2M1 values doubled (ggml's kvalues_mxfp4).
var mxfp4Values = [16]int8{0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12}

// e8m0Half returns 2^(e-128), half the block scale 2^(e-127), exactly; e =
// 0 and 1 give the subnormals 2^-128 and 2^-127. The exponent 0xff (NaN in
// the MX specification) reads as 2^127, as in ggml.
func e8m0Half(e uint8) float32 {
	if e < 2 {
		return math.Float32frombits(0x00200000 << e)
	}
	return math.Float32frombits(uint32(e-1) << 23)
}

// decodeMXFP4 decodes one block: w[j] = d*q[j].
func decodeMXFP4(b []byte, q *[qk]int8) (float32, float32) {
	for j, v := range b[1 : 1+qk/2] {
		q[j] = mxfp4Values[v&0xf]
		q[j+qk/2] = mxfp4Values[v>>4]
	}
	return e8m0Half(b[0]), 0
}

func qdotMXFP4Ref(w, x []byte, xs int, out []float32) { qdot32(MXFP4, w, x, xs, out) }

// MXFP4FromHF converts the experts' weights of a Hugging Face MXFP4
// checkpoint (gpt-oss: *_blocks, U8 [..., cols/32, 16], and *_scales, U8
// [..., cols/32]) to the MXFP4 layout of Matrix.Data. The checkpoint packs
// element 2i in the low nibble and element 2i+1 in the high nibble of byte
// i of a block; Matrix.Data (ggml's order) puts elements j and j+16 in byte
// j. Rows stay in the order the checkpoint has them: row r of the result is
// row r of blocks and scales.
func MXFP4FromHF(blocks, scales []byte) ([]byte, error) {
	return MXFP4FromHFRows(blocks, scales, 32*len(scales), 0, 1)
}

// MXFP4FromHFRows is MXFP4FromHF for every step-th row of cols values,
// from row first: gpt-oss's gate_up_proj interleaves its two matrices, the
// gate in the even rows (first 0, step 2) and up in the odd ones (first 1).
func MXFP4FromHFRows(blocks, scales []byte, cols, first, step int) ([]byte, error) {
	if len(blocks) != 16*len(scales) {
		return nil, fmt.Errorf("%w: MXFP4 blocks of %d bytes for %d scales, want 16 bytes per scale", ErrMatrix, len(blocks), len(scales))
	}
	if cols <= 0 || cols%qk != 0 || step <= 0 || first < 0 || (len(scales) > 0 && first >= 32*len(scales)/cols) || 32*len(scales)%cols != 0 {
		return nil, fmt.Errorf("%w: MXFP4 rows from %d every %d of %d columns in %d blocks", ErrMatrix, first, step, cols, len(scales))
	}
	nb, rows := cols/qk, 32*len(scales)/cols
	out := make([]byte, 0, (rows-first+step-1)/step*nb*mxfp4)
	for r := first; r < rows; r += step {
		for b := r * nb; b < (r+1)*nb; b++ {
			src := blocks[16*b : 16*b+16]
			out = append(out, scales[b])
			for j := range 16 {
				out = append(out, nibbleAt(src, j)|nibbleAt(src, j+16)<<4)
			}
		}
	}
	return out, nil
}

// nibbleAt returns element i of a Hugging Face MXFP4 block (element 2k is
// the low nibble of byte k).
func nibbleAt(src []byte, i int) byte {
	return src[i/2] >> (4 * (i % 2)) & 0xf
}

// The packed layout of MXFP4 is Q4_0's (pack.go) with the block scale
// 2^(e-128) stored as an fp16, which holds it exactly for e from 104 to
// 143 (2^-24 to 2^15); a matrix with a scale outside that range is not
// packed. The tile kernels look the nibbles up as the doubled E2M1 values
// plus 16 (4 to 28, unsigned for VPDPBUSD) and take 16·Σx back out with
// the activation's correction, which holds -8·Σx, doubled.

// mxfp4HalfScales reports whether every scale of MXFP4 data is exact as
// an fp16.
func mxfp4HalfScales(data []byte) bool {
	for i := 0; i < len(data); i += mxfp4 {
		if e := data[i]; e < 104 || e > 143 {
			return false
		}
	}
	return true
}

// mxfp4BlockToHalf writes an MXFP4 block b as dst: the scale as an fp16,
// then the 16 bytes of nibbles unchanged (the layout of a Q4_0 block).
func mxfp4BlockToHalf(dst, b []byte) {
	binary.LittleEndian.PutUint16(dst, f32ToF16(e8m0Half(b[0])))
	copy(dst[2:18], b[1:17])
}

// dequantHalfMXFP4 is decodeMXFP4 for a block written by mxfp4BlockToHalf.
func dequantHalfMXFP4(b []byte, dst []float32) {
	d := half(b)
	for j, v := range b[2:18] {
		dst[j] = d * float32(mxfp4Values[v&0xf])
		dst[j+16] = d * float32(mxfp4Values[v>>4])
	}
}
