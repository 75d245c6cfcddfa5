//go:build !noasm

package kernels

import "golang.org/x/sys/cpu"

//go:noescape
func halfGemm1F16AVX512(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)

//go:noescape
func halfGemm1BF16AVX512(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)

//go:noescape
func halfGemm6F16AVX512(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)

//go:noescape
func halfGemm6BF16AVX512(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)

//go:noescape
func halfGemm6F32AVX512(w *float32, wstride int, x *float32, cols int, out *float32, ostride int)

//go:noescape
func halfDecodeF16AVX2(w *uint16, x *float32, cols, rows int, out *float32, ahead int)

//go:noescape
func halfDecodeBF16AVX2(w *uint16, x *float32, cols, rows int, out *float32, ahead int)

//go:noescape
func halfGemm2F16AVX2(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)

//go:noescape
func halfGemm1F16AVX2(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)

//go:noescape
func halfGemm2BF16AVX2(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)

//go:noescape
func halfGemm1BF16AVX2(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)

// hasAVX512F reports whether this CPU runs the 512-bit half tile kernels.
var hasAVX512F = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && hasAVX2

// Half tile kernel sets (F16, BF16) per instruction set.
var (
	halfAVX2 = [2]halfSet{
		{tile: halfGemm2F16AVX2, m: 2, one: halfGemm1F16AVX2, step: 8, decode: halfDecodeF16AVX2},
		{tile: halfGemm2BF16AVX2, m: 2, one: halfGemm1BF16AVX2, step: 8, decode: halfDecodeBF16AVX2},
	}
	halfAVX512 = [2]halfSet{
		{tile: halfGemm6F16AVX512, m: 6, one: halfGemm1F16AVX512, step: 16, wide: halfGemm6F32AVX512, decode: halfDecodeF16AVX2},
		{tile: halfGemm6BF16AVX512, m: 6, one: halfGemm1BF16AVX512, step: 16, decode: halfDecodeBF16AVX2},
	}
)

// initHalf installs the half tile kernels of level lvl (at least AVX2).
func initHalf(k *kernelSet, lvl int) {
	k.half = halfAVX2
	if lvl >= levelAVX512 {
		k.half = halfAVX512
	}
}
