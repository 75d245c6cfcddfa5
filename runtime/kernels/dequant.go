package kernels

import "fmt"

// Row dequantizes row r into dst (len w.Cols), for embedding lookups. It
// panics if r is out of range, like an index expression.
func (w *Matrix) Row(r int, dst []float32) {
	if r < 0 || r >= w.Rows {
		panic("kernels: Matrix.Row: row out of range")
	}
	dst = dst[:w.Cols]
	if w.packedRow(r, dst) { // leaves the file's pages of Data alone (unpack.go)
		return
	}
	if w.Type == MLXAffine {
		w.affineRow(r, dst)
		return
	}
	decode(w.Type, w.rowData(r), dst)
}

// Decode converts the len(dst) values of format t stored in src (as a GGUF
// file or safetensors stores them, little-endian) to float32. len(dst) must
// be a whole number of blocks and src exactly their bytes. MLXAffine, whose
// scales and biases are stored apart from the values, is read through a
// Matrix instead.
func Decode(t DType, src []byte, dst []float32) error {
	if !littleEndian() {
		return fmt.Errorf("%w: the kernels need a little-endian CPU", ErrMatrix)
	}
	be, bb := t.blockElems(), t.blockBytes()
	if t >= MLXAffine || bb == 0 {
		return fmt.Errorf("%w: Decode: no block layout for %v", ErrMatrix, t)
	}
	if len(dst)%be != 0 {
		return fmt.Errorf("%w: Decode %v: %d values is not a multiple of the block size %d", ErrMatrix, t, len(dst), be)
	}
	if want := len(dst) / be * bb; len(src) != want {
		return fmt.Errorf("%w: Decode %v: %d bytes for %d values, want %d", ErrMatrix, t, len(src), len(dst), want)
	}
	decode(t, src, dst)
	return nil
}

// decode converts whole blocks of format t (not MLXAffine) to float32.
func decode(t DType, b []byte, dst []float32) {
	switch t {
	case F32:
		copy(dst, asF32(aligned(b, t)))
	case F16:
		F16ToF32(dst, asU16(aligned(b, t)))
	case BF16:
		for i, h := range asU16(aligned(b, t)) {
			dst[i] = bf16ToF32(h)
		}
	default:
		if t.blockElems() == qk {
			dequant32(t, b, dst)
		} else {
			dequantK(t, b, dst)
		}
	}
}

// dequant32 computes w = d*q + m per element, as ggml's dequantize_row_*.
func dequant32(t DType, b []byte, dst []float32) {
	var q [qk]int8
	wb := t.blockBytes()
	for blk := range len(b) / wb {
		d, m := decode32(t, b[blk*wb:], &q)
		out := dst[blk*qk : blk*qk+qk]
		for j, v := range q {
			out[j] = float32(float32(v)*d) + m
		}
	}
}

// dequantK computes w = (d*sc)*q - dmin*m per element, as ggml's
// dequantize_row_q4_K and friends.
func dequantK(t DType, b []byte, dst []float32) {
	var q [qkK]int8
	var sc, mn [16]int32
	wb := t.blockBytes()
	for blk := range len(b) / wb {
		d, dmin := decodeK(t, b[blk*wb:], &q, &sc, &mn)
		out := dst[blk*qkK : blk*qkK+qkK]
		for s := range 16 {
			ds := d * float32(sc[s])
			ms := dmin * float32(mn[s])
			for j, v := range q[16*s : 16*s+16] {
				out[16*s+j] = float32(ds*float32(v)) - ms
			}
		}
	}
}
