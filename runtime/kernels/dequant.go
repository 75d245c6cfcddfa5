package kernels

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
	b := w.rowData(r)
	switch w.Type {
	case F32:
		copy(dst, asF32(b))
	case F16:
		F16ToF32(dst, asU16(b))
	case BF16:
		for i, h := range asU16(b) {
			dst[i] = bf16ToF32(h)
		}
	default:
		if w.Type.blockElems() == qk {
			dequant32(w.Type, b, dst)
		} else {
			dequantK(w.Type, b, dst)
		}
	case MLXAffine:
		w.affineRow(r, dst)
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
