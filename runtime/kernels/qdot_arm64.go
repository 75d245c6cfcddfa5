//go:build !noasm

package kernels

//go:noescape
func qdotQ8_0SDOT(w, x *byte, nb, xstride, nrows int, out *float32)

//go:noescape
func qdotQ4_0SDOT(w, x *byte, nb, xstride, nrows int, out *float32)

//go:noescape
func qdotQ4_1SDOT(w, x *byte, nb, xstride, nrows int, out *float32)

//go:noescape
func qdotQ5_0SDOT(w, x *byte, nb, xstride, nrows int, out *float32)

//go:noescape
func qdotQ5_1SDOT(w, x *byte, nb, xstride, nrows int, out *float32)

//go:noescape
func qdotQ4_KSDOT(w, x *byte, nb int) float32

//go:noescape
func qdotQ5_KSDOT(w, x *byte, nb int) float32

//go:noescape
func qdotQ6_KSDOT(w, x *byte, nb int) float32

//go:noescape
func qdotQ8_0NEON(w, x *byte, nb, xstride, nrows int, out *float32)

//go:noescape
func qdotQ4_0NEON(w, x *byte, nb, xstride, nrows int, out *float32)

//go:noescape
func qdotQ4_1NEON(w, x *byte, nb, xstride, nrows int, out *float32)

//go:noescape
func qdotQ5_0NEON(w, x *byte, nb, xstride, nrows int, out *float32)

//go:noescape
func qdotQ5_1NEON(w, x *byte, nb, xstride, nrows int, out *float32)

//go:noescape
func qdotQ4_KNEON(w, x *byte, nb int) float32

//go:noescape
func qdotQ5_KNEON(w, x *byte, nb int) float32

//go:noescape
func qdotQ6_KNEON(w, x *byte, nb int) float32

//go:noescape
func qdotMXFP4SDOT(w, x *byte, nb, xstride, nrows int, out *float32)

//go:noescape
func qdotMXFP4NEON(w, x *byte, nb, xstride, nrows int, out *float32)

// initQdotNEON installs the dot products of the GGUF block formats: SDOT
// ones at level dotprod, SMULL/SADALP ones below it.
func initQdotNEON(k *kernelSet, lvl int) {
	if lvl >= levelDotProd {
		k.qdot[Q8_0] = qdot4(qdotQ8_0SDOT, q8_0, q8_0)
		k.qdot[Q4_0] = qdot4(qdotQ4_0SDOT, q4_0, q8_0)
		k.qdot[Q4_1] = qdot4(qdotQ4_1SDOT, q4_1, q8_1)
		k.qdot[Q5_0] = qdot4(qdotQ5_0SDOT, q5_0, q8_0)
		k.qdot[Q5_1] = qdot4(qdotQ5_1SDOT, q5_1, q8_1)
		k.qdot[Q4_K] = qdot1(qdotQ4_KSDOT, q4K)
		k.qdot[Q5_K] = qdot1(qdotQ5_KSDOT, q5K)
		k.qdot[Q6_K] = qdot1(qdotQ6_KSDOT, q6K)
		k.qdot[MXFP4] = qdot4(qdotMXFP4SDOT, mxfp4, q8_0)
		return
	}
	k.qdot[Q8_0] = qdot4(qdotQ8_0NEON, q8_0, q8_0)
	k.qdot[Q4_0] = qdot4(qdotQ4_0NEON, q4_0, q8_0)
	k.qdot[Q4_1] = qdot4(qdotQ4_1NEON, q4_1, q8_1)
	k.qdot[Q5_0] = qdot4(qdotQ5_0NEON, q5_0, q8_0)
	k.qdot[Q5_1] = qdot4(qdotQ5_1NEON, q5_1, q8_1)
	k.qdot[Q4_K] = qdot1(qdotQ4_KNEON, q4K)
	k.qdot[Q5_K] = qdot1(qdotQ5_KNEON, q5K)
	k.qdot[Q6_K] = qdot1(qdotQ6_KNEON, q6K)
	k.qdot[MXFP4] = qdot4(qdotMXFP4NEON, mxfp4, q8_0)
}
