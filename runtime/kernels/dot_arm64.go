//go:build !noasm

package kernels

// Assembly kernels for arm64 (NEON is always present; SDOT when the CPU has
// the dot-product extension). The assembly handles multiples of 16
// elements; the Go wrappers finish tails with the reference code.

//go:noescape
func dotNEON(a, b []float32) float32

//go:noescape
func dotF16NEON(a []uint16, b []float32) float32

//go:noescape
func dotBF16NEON(a []uint16, b []float32) float32

//go:noescape
func axpyNEON(alpha float32, x, y []float32)

//go:noescape
func axpyF16NEON(alpha float32, x []uint16, y []float32)

//go:noescape
func f16ToF32NEON(dst []float32, src []uint16)

//go:noescape
func f32ToF16NEON(dst []uint16, src []float32)

// initDotNEON installs the float dots, axpys and half conversions; the
// assembly takes whole multiples of 16 elements and the reference code
// finishes the tails.
func initDotNEON(k *kernelSet) {
	k.dot = func(a, b []float32) float32 {
		n := len(a) &^ 15
		return dotNEON(a[:n], b) + dotRef(a[n:], b[n:])
	}
	k.dotF16 = func(a []uint16, b []float32) float32 {
		n := len(a) &^ 15
		return dotF16NEON(a[:n], b) + dotF16Ref(a[n:], b[n:])
	}
	k.dotBF16 = func(a []uint16, b []float32) float32 {
		n := len(a) &^ 15
		return dotBF16NEON(a[:n], b) + dotBF16Ref(a[n:], b[n:])
	}
	k.axpy = func(alpha float32, x, y []float32) {
		n := len(x) &^ 15
		axpyNEON(alpha, x[:n], y)
		axpyRef(alpha, x[n:], y[n:])
	}
	k.axpyF16 = func(alpha float32, x []uint16, y []float32) {
		n := len(x) &^ 15
		axpyF16NEON(alpha, x[:n], y)
		axpyF16Ref(alpha, x[n:], y[n:])
	}
	k.f16ToF32 = func(dst []float32, src []uint16) {
		n := len(src) &^ 15
		f16ToF32NEON(dst, src[:n])
		f16ToF32Ref(dst[n:], src[n:])
	}
	k.f32ToF16 = func(dst []uint16, src []float32) {
		n := len(src) &^ 15
		f32ToF16NEON(dst, src[:n])
		f32ToF16Ref(dst[n:], src[n:])
	}
}
