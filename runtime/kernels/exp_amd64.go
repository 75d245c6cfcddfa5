//go:build !noasm

package kernels

//go:noescape
func expAVX2(x *float32, n int)

//go:noescape
func expShiftAVX2(x *float32, n int, m float32) float64

//go:noescape
func expShiftGGMLAVX2(x *float32, n int, m float32, sum float64) float64

//go:noescape
func siluMulAVX2(gate, up *float32, n int)

// initExpAVX2 installs the exponentials (Exp, Softmax's shifted sum, SiLUMul);
// the assembly takes whole vectors and the reference code finishes the tails.
func initExpAVX2(k *kernelSet) {
	k.expShiftGGML = func(x []float32, m float32, sum float64) float64 {
		if len(x) == 0 {
			return sum
		}
		return expShiftGGMLAVX2(&x[0], len(x), m, sum)
	}
	k.expShift = func(x []float32, m float32) float64 {
		n := len(x) &^ 7
		var sum float64
		if n > 0 {
			sum = expShiftAVX2(&x[0], n, m)
		}
		return sum + expShiftRef(x[n:], m)
	}
	k.siluMul = func(gate, up []float32) {
		n := len(gate) &^ 7
		if n > 0 {
			siluMulAVX2(&gate[0], &up[0], n)
		}
		siluMulRef(gate[n:], up[n:])
	}
	k.exp = func(x []float32) {
		n := len(x) &^ 7
		if n > 0 {
			expAVX2(&x[0], n)
		}
		expRef(x[n:])
	}
}
