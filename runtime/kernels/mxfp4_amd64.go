//go:build !noasm

package kernels

//go:noescape
func qdotMXFP4AVX2(w, x *byte, nb, xstride, nrows int, out *float32)

// initMXFP4AVX2 installs the MXFP4 dot product.
func initMXFP4AVX2(k *kernelSet) {
	k.qdot[MXFP4] = qdot4(qdotMXFP4AVX2, mxfp4, q8_0)
}
