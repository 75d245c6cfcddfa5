package kernels

import "math"

// GELUTanhMul sets gate[i] = gelu_tanh(gate[i]) * up[i], the tanh
// approximation of GELU (PyTorch's approximate="tanh"):
// gelu_tanh(g) = g/2 · (1 + tanh(√(2/π)·(g + 0.044715·g³))).
func GELUTanhMul(gate, up []float32) {
	up = up[:len(gate)]
	const c = 0.7978845608028654 // √(2/π)
	for i, g := range gate {
		x := float64(g)
		gate[i] = float32(0.5*x*(1+math.Tanh(c*(x+0.044715*x*x*x)))) * up[i]
	}
}

// Softcap sets x[i] = c·tanh(x[i]/c), which bounds every value to (-c, c)
// while keeping small values almost unchanged (Gemma's logit soft-capping).
func Softcap(x []float32, c float32) {
	for i, v := range x {
		x[i] = c * float32(math.Tanh(float64(v/c)))
	}
}
