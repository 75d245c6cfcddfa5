package kernels

import "math"

// Exp sets x[i] = e^x[i]. The assembly is within about 2e-7 relative
// error for x in [-86.5, 88]; below it gives 0, above e^88.
func Exp(x []float32) { impl().exp(x) }

// ExpShift sets x[i] = e^(x[i]-m) and returns their sum: the weights of
// a softmax whose maximum is m, before the division.
func ExpShift(x []float32, m float32) float32 { return float32(impl().expShift(x, m)) }

func expRef(x []float32) {
	for i, v := range x {
		x[i] = float32(math.Exp(float64(v)))
	}
}

// SiLUMul sets gate[i] = silu(gate[i]) * up[i], silu(g) = g / (1 + e^-g).
// The assembly computes e^-g to about 2e-7 relative error.
func SiLUMul(gate, up []float32) {
	up = up[:len(gate)]
	impl().siluMul(gate, up)
}

func siluMulRef(gate, up []float32) {
	up = up[:len(gate)]
	for i, g := range gate {
		gate[i] = g / (1 + float32(math.Exp(float64(-g)))) * up[i]
	}
}

// expShiftRef sets x[i] = e^(x[i]-m) and returns the sum, added in float64.
func expShiftRef(x []float32, m float32) float64 {
	var sum float64
	for i, v := range x {
		e := float32(math.Exp(float64(v - m)))
		x[i] = e
		sum += float64(e)
	}
	return sum
}
