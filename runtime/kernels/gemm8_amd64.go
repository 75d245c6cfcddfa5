//go:build !noasm

package kernels

//go:noescape
func gemm8x8Q8_0(w, x *byte, np, xstride int, out *float32, ostride int)

//go:noescape
func gemm8x1Q8_0(w, x *byte, np, xstride int, out *float32, ostride int)
