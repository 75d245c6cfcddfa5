//go:build (amd64 || arm64) && !noasm

package kernels

// qdot1 wraps a one-row assembly kernel of a K-quant after checking the
// slice bounds, calling it once per activation row.
func qdot1(kern func(w, x *byte, nb int) float32, wb int) func(w, x []byte, xs int, out []float32) {
	return func(w, x []byte, xs int, out []float32) {
		nb := len(w) / wb
		if nb == 0 || len(out) == 0 {
			clear(out)
			return
		}
		_ = x[(len(out)-1)*xs+nb*q8K-1]
		for r := range out {
			out[r] = kern(&w[0], &x[r*xs], nb)
		}
	}
}

// qdotK4 wraps a K-quant kernel for exactly four activation rows, and the
// one-row kernel for fewer.
func qdotK4(kern4 func(w, x *byte, nb, xstride int, out *float32), kern1 func(w, x *byte, nb int) float32, wb int) func(w, x []byte, xs int, out []float32) {
	one := qdot1(kern1, wb)
	return func(w, x []byte, xs int, out []float32) {
		nb := len(w) / wb
		if len(out) != 4 || nb == 0 {
			one(w, x, xs, out)
			return
		}
		_ = x[3*xs+nb*q8K-1]
		kern4(&w[0], &x[0], nb, xs, &out[0])
	}
}

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
