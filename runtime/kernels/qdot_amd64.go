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

//go:noescape
func qdotQ4_KAVX2(w, x *byte, nb int) float32

//go:noescape
func qdotQ5_KAVX2(w, x *byte, nb int) float32

//go:noescape
func qdotQ6_KAVX2(w, x *byte, nb int) float32

//go:noescape
func qdotQ4_K4AVX2(w, x *byte, nb, xstride int, out *float32)

//go:noescape
func qdotQ6_K4AVX2(w, x *byte, nb, xstride int, out *float32)

//go:noescape
func quantQ8_0AVX2(dst *byte, src *float32, nb int)

//go:noescape
func quantPairsAVX2(dst *byte, src *float32, np int)

//go:noescape
func affineGroups4AVX2(row *byte, x *float32, ngroups, gsize int, out *float32)

// initQuantAVX2 installs the quantized assembly kernels.
func initQuantAVX2(k *impls) {
	k.qdot[Q8_0] = qdot4(qdotQ8_0AVX2, q8_0, q8_0)
	k.qdot[Q4_0] = qdot4(qdotQ4_0AVX2, q4_0, q8_0)
	k.qdot[Q4_1] = qdot4(qdotQ4_1AVX2, q4_1, q8_1)
	k.qdot[Q5_0] = qdot4(qdotQ5_0AVX2, q5_0, q8_0)
	k.qdot[Q5_1] = qdot4(qdotQ5_1AVX2, q5_1, q8_1)
	k.qdot[Q4_K] = qdotK4(qdotQ4_K4AVX2, qdotQ4_KAVX2, q4K)
	k.qdot[Q5_K] = qdot1(qdotQ5_KAVX2, q5K)
	k.qdot[Q6_K] = qdotK4(qdotQ6_K4AVX2, qdotQ6_KAVX2, q6K)
	k.qdot[MXFP4] = qdot4(qdotMXFP4AVX2, mxfp4, q8_0)
	k.quantize[actQ8_0] = quantQ8_0(quantQ8_0AVX2)
	k.quantize[actPair] = quantPairs(quantPairsAVX2)
	k.quantize[actPairSum] = summedPairs(k.quantize[actPair])
	k.affineGroups = affineGroups4(affineGroups4AVX2)
	k.affineRow4BF16 = affineRowBF16
}
