//go:build !noasm

package kernels

//go:noescape
func gemm4Q4_KVNNI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm1Q4_KVNNI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm1Q4_KGFNI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm1Q6_KGFNI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm4Q6_KVNNI(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm1Q6_KVNNI(w, x *byte, np, xstride int, out *float32, ostride int)

// The VNNI K-quant tile kernels.
var (
	gemmQ4_KVNNI = gemmSet{wide: gemm4Q4_KVNNI, one: gemm1Q4_KVNNI, cols: 4, ahead: true}
	gemmQ6_KVNNI = gemmSet{wide: gemm4Q6_KVNNI, one: gemm1Q6_KVNNI, cols: 4, ahead: true}
)

// initGemmK installs the K-quant tile kernels (pack_kquant.go) of level lvl
// (avx2 or above) and their activation quantizer; without them NewMatrix
// keeps Q4_K and Q6_K unpacked and the per-row kernels compute them. The
// kernels get np as packedChunk passes it to every tile kernel, pairs of
// 32-value blocks, and loop over np/4 super-blocks.
func initGemmK(k *kernelSet, lvl int) {
	k.quantize[actQ8_KP] = quantizeKPAVX2
	if lvl < levelVNNI {
		k.gemm[Q4_K], k.gemm[Q6_K] = gemmQ4_KAVX2, gemmQ6_KAVX2
		return
	}
	k.gemm[Q4_K], k.gemm[Q6_K] = gemmQ4_KVNNI, gemmQ6_KVNNI
	if hasGFNI { // the same results, the nibbles split in one operation
		k.gemm[Q4_K].one = gemm1Q4_KGFNI
		k.gemm[Q6_K].one = gemm1Q6_KGFNI
	}
}
