//go:build !noasm

package kernels

//go:noescape
func qdotMXFP4AVX2(w, x *byte, nb, xstride, nrows int, out *float32)
