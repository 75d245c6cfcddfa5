//go:build !noasm

package kernels

// Assembly kernels for amd64 with AVX2, FMA and F16C (Haswell and later,
// Zen). The assembly handles whole vectors (multiples of 8 elements); the Go
// wrappers finish tails with the reference code.

//go:noescape
func dotAVX2(a, b []float32) float32

//go:noescape
func dotLanesAVX2(a, b []float32) float32

//go:noescape
func dotF16AVX2(a []uint16, b []float32) float32

//go:noescape
func dotBF16AVX2(a []uint16, b []float32) float32

//go:noescape
func axpyAVX2(alpha float32, x, y []float32)

//go:noescape
func axpyF16AVX2(alpha float32, x []uint16, y []float32)

//go:noescape
func f16ToF32AVX2(dst []float32, src []uint16)

//go:noescape
func f32ToF16AVX2(dst []uint16, src []float32)

// initDotAVX2 installs the float dots, axpys and half conversions; the
// assembly takes whole vectors and the reference code finishes the tails.
func initDotAVX2(k *kernelSet) {
	k.dot = func(a, b []float32) float32 {
		n := len(a) &^ 7
		return dotAVX2(a[:n], b) + dotRef(a[n:], b[n:])
	}
	k.dotLanes = dotLanesAVX2
	k.dotF16 = func(a []uint16, b []float32) float32 {
		n := len(a) &^ 7
		return dotF16AVX2(a[:n], b) + dotF16Ref(a[n:], b[n:])
	}
	k.dotBF16 = func(a []uint16, b []float32) float32 {
		n := len(a) &^ 7
		return dotBF16AVX2(a[:n], b) + dotBF16Ref(a[n:], b[n:])
	}
	k.axpy = func(alpha float32, x, y []float32) {
		n := len(x) &^ 7
		axpyAVX2(alpha, x[:n], y)
		axpyRef(alpha, x[n:], y[n:])
	}
	k.axpyF16 = func(alpha float32, x []uint16, y []float32) {
		n := len(x) &^ 7
		axpyF16AVX2(alpha, x[:n], y)
		axpyF16Ref(alpha, x[n:], y[n:])
	}
	k.f16ToF32 = func(dst []float32, src []uint16) {
		n := len(src) &^ 7
		f16ToF32AVX2(dst, src[:n])
		f16ToF32Ref(dst[n:], src[n:])
	}
	k.f32ToF16 = func(dst []uint16, src []float32) {
		n := len(src) &^ 7
		f32ToF16AVX2(dst, src[:n])
		f32ToF16Ref(dst[n:], src[n:])
	}
}
