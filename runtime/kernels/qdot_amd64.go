//go:build !noasm

package kernels

//go:noescape
func qdotQ8_0AVX2(w, x *byte, nb, xstride, nrows int, out *float32)

//go:noescape
func qdotQ4_0AVX2(w, x *byte, nb, xstride, nrows int, out *float32)

//go:noescape
func qdotQ4_1AVX2(w, x *byte, nb, xstride, nrows int, out *float32)

//go:noescape
func qdotQ5_0AVX2(w, x *byte, nb, xstride, nrows int, out *float32)

//go:noescape
func qdotQ5_1AVX2(w, x *byte, nb, xstride, nrows int, out *float32)

// initQdotAVX2 installs the dot products of the 32-value block formats.
func initQdotAVX2(k *kernelSet) {
	k.qdot[Q8_0] = qdot4(qdotQ8_0AVX2, q8_0, q8_0)
	k.qdot[Q4_0] = qdot4(qdotQ4_0AVX2, q4_0, q8_0)
	k.qdot[Q4_1] = qdot4(qdotQ4_1AVX2, q4_1, q8_1)
	k.qdot[Q5_0] = qdot4(qdotQ5_0AVX2, q5_0, q8_0)
	k.qdot[Q5_1] = qdot4(qdotQ5_1AVX2, q5_1, q8_1)
}
