//go:build !noasm

package kernels

//go:noescape
func gemm4Q4_KAVX2(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm1Q4_KAVX2(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm4Q6_KAVX2(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm1Q6_KAVX2(w, x *byte, np, xstride int, out *float32, ostride int)

// The AVX2 K-quant tile kernels: the same bits as the VNNI ones.
var (
	gemmQ4_KAVX2 = gemmSet{wide: gemm4Q4_KAVX2, one: gemm1Q4_KAVX2, cols: 4, ahead: true}
	gemmQ6_KAVX2 = gemmSet{wide: gemm4Q6_KAVX2, one: gemm1Q6_KAVX2, cols: 4, ahead: true}
)
