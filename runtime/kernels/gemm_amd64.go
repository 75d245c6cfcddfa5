//go:build !noasm

package kernels

import "golang.org/x/sys/cpu"

//go:noescape
func gemm4Q4_0VNNI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm4Q8_0VNNI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm1Q4_0VNNI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm1Q8_0VNNI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm4MXFP4VNNI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm3MXFP4VNNI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm2MXFP4VNNI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm1MXFP4VNNI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm4MXFP4VBMI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm3MXFP4VBMI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm2MXFP4VBMI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm1MXFP4VBMI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm2MXFP4AVX2(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm1MXFP4AVX2(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm1Q4_0AVX2(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm4Q4_0AVX2(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm4Q4_0GFNI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm1Q4_0GFNI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm1Q8_0AVX2(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm4Q8_0AVX2(w, x *byte, np, xstride int, out *float32, ostride int)

// hasVNNI reports whether this CPU runs the AVX-512 VNNI tile kernels (on
// 256-bit vectors, with 32 registers).
var hasVNNI = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VNNI

// hasGFNI reports whether the VNNI Q4_0 kernels can split nibbles with
// GFNI's affine transform (gemm4Q4_0GFNI, gemm1Q4_0GFNI: the same results).
var hasGFNI = hasVNNI && cpu.X86.HasAVX512GFNI

// hasVBMI reports whether the VNNI MXFP4 kernels can look nibbles up with
// GFNI and VPERMB (gemm4MXFP4VBMI and the others: the same results).
var hasVBMI = hasGFNI && cpu.X86.HasAVX512VBMI

// gemmMXFP4VBMI is the MXFP4 entry of gemmVNNI where hasVBMI.
var gemmMXFP4VBMI = gemmSet{wide: gemm4MXFP4VBMI, three: gemm3MXFP4VBMI, two: gemm2MXFP4VBMI, one: gemm1MXFP4VBMI, cols: 4, ahead: true, inloop: true}

// gemmQ4_0GFNI is the Q4_0 entry of gemmVNNI where hasGFNI.
var gemmQ4_0GFNI = gemmSet{wide: gemm4Q4_0GFNI, one: gemm1Q4_0GFNI, cols: 4, ahead: true}

// Tile kernel sets per instruction set, by weight format.
var (
	gemmAVX2 = map[DType]gemmSet{
		Q4_0:  {wide: gemm4Q4_0AVX2, one: gemm1Q4_0AVX2, cols: 4, ahead: true},
		Q8_0:  {wide: gemm4Q8_0AVX2, one: gemm1Q8_0AVX2, cols: 4, ahead: true},
		MXFP4: {one: gemm1MXFP4AVX2, two: gemm2MXFP4AVX2, ahead: true, inloop: true},
	}
	gemmVNNI = map[DType]gemmSet{
		Q4_0:       {wide: gemm4Q4_0VNNI, one: gemm1Q4_0VNNI, cols: 4, ahead: true},
		Q8_0:       {wide: gemm4Q8_0VNNI, one: gemm1Q8_0VNNI, cols: 4, ahead: true},
		MXFP4:      {wide: gemm4MXFP4VNNI, three: gemm3MXFP4VNNI, two: gemm2MXFP4VNNI, one: gemm1MXFP4VNNI, cols: 4, ahead: true, inloop: true},
		layoutQ8x8: {wide: gemm8x8Q8_0, one: gemm8x1Q8_0, cols: 8, ahead: true, stream: true},
	}
)

// initGemm installs the tile kernels of level lvl.
func initGemm(k *kernelSet, lvl int) {
	set := gemmAVX2
	if lvl >= levelVNNI {
		set = gemmVNNI
	}
	for t, g := range set {
		k.gemm[t] = g
	}
	if lvl >= levelVNNI && hasGFNI {
		k.gemm[Q4_0] = gemmQ4_0GFNI
	}
	if lvl >= levelVNNI && hasVBMI {
		k.gemm[MXFP4] = gemmMXFP4VBMI
	}
}
