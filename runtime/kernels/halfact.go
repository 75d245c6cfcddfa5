package kernels

// Half-precision activations. ggml's CPU backend multiplies F16 weights
// with F16 activations (the vec_dot_type of F16 is F16): it rounds every
// activation row to halves, then sums the products in float32. An F16
// matrix with HalfActs set does the same, so the products of a GGUF file's
// F16 weights equal llama.cpp's; the rounding costs O(cols) per activation
// row against the O(rows·cols) of the product.

// halfActs reports whether the products of w take activations rounded to
// halves.
func (w *Matrix) halfActs() bool { return w.HalfActs && w.Type == F16 }

// RoundedInput returns x rounded as the products of w round their
// activations: a rounded copy when w has HalfActs, x itself otherwise.
func (w *Matrix) RoundedInput(x []float32) []float32 {
	if !w.halfActs() {
		return x
	}
	out := make([]float32, len(x))
	roundHalf(out, x, make([]uint16, len(x)))
	return out
}

// roundHalf sets dst to src rounded to halves, ties to even, with tmp (as
// long as src) as scratch.
func roundHalf(dst, src []float32, tmp []uint16) {
	F32ToF16(tmp, src)
	F16ToF32(dst, tmp)
}

// roundRow rounds activation row i of the matmul under way into its
// rounded copy (prepare).
func (j *matmulJob) roundRow(i int) {
	c := j.cols
	roundHalf(j.xr[i*c:(i+1)*c], j.x[i*c:(i+1)*c], j.xh[i*c:(i+1)*c])
}
