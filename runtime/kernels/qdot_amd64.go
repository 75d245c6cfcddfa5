//go:build !noasm

package kernels

//go:noescape
func qdotQ8_0AVX2(w, x *byte, nb, xstride, nrows int, out *float32)

//go:noescape
func qdotQ4_0AVX2(w, x *byte, nb, xstride, nrows int, out *float32)

// qdot4 wraps a 4-row assembly kernel after checking the slice bounds.
func qdot4(kern func(w, x *byte, nb, xstride, nrows int, out *float32), wb, xb int) func(w, x []byte, xs int, out []float32) {
	return func(w, x []byte, xs int, out []float32) {
		nb := len(w) / wb
		if nb == 0 || len(out) == 0 {
			clear(out)
			return
		}
		_ = x[(len(out)-1)*xs+nb*xb-1]
		kern(&w[0], &x[0], nb, xs, len(out), &out[0])
	}
}

// initQuantAVX2 installs the quantized assembly kernels.
func initQuantAVX2(k *impls) {
	k.qdot[Q8_0] = qdot4(qdotQ8_0AVX2, q8_0, q8_0)
	k.qdot[Q4_0] = qdot4(qdotQ4_0AVX2, q4_0, q8_0)
}
