//go:build !noasm

package kernels

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

// initQdotKAVX2 installs the dot products of the K-quant formats: four
// activation rows per weight block for Q4_K and Q6_K, one for Q5_K.
func initQdotKAVX2(k *kernelSet) {
	k.qdot[Q4_K] = qdotK4(qdotQ4_K4AVX2, qdotQ4_KAVX2, q4K)
	k.qdot[Q5_K] = qdot1(qdotQ5_KAVX2, q5K)
	k.qdot[Q6_K] = qdotK4(qdotQ6_K4AVX2, qdotQ6_KAVX2, q6K)
}
