package kernels

import "math"

// GELUTanhMul sets gate[i] = gelu_tanh(gate[i]) * up[i], the tanh
// approximation of GELU (PyTorch's approximate="tanh"):
// gelu_tanh(g) = g/2 · (1 + tanh(√(2/π)·(g + 0.044715·g³))), computed as
// g / (1 + e^(-2·√(2/π)·(g + 0.044715·g³))), the same function, with the
// vectorised Exp on blocks of values.
func GELUTanhMul(gate, up []float32) {
	up = up[:len(gate)]
	var keep [64]float32 // the block's gate values; gate holds the exponentials
	for lo := 0; lo < len(gate); lo += len(keep) {
		t, u := gate[lo:min(lo+len(keep), len(gate))], up[lo:]
		g := keep[:len(t)]
		copy(g, t)
		for i, x := range g {
			t[i] = -2 * geluC * (x + 0.044715*x*x*x)
		}
		Exp(t)
		for i, x := range g {
			t[i] = x / (1 + t[i]) * u[i]
		}
	}
}

// geluC is √(2/π).
const geluC = 0.7978845608028654

// Softcap sets x[i] = c·tanh(x[i]/c), which bounds every value to (-c, c)
// while keeping small values almost unchanged (Gemma's logit soft-capping).
// It computes tanh|y| as (1-e^(-2|y|))/(1+e^(-2|y|)) with the vectorised
// Exp on blocks of values, then restores the sign.
func Softcap(x []float32, c float32) {
	var neg [64]bool
	k := -2 / c
	for lo := 0; lo < len(x); lo += len(neg) {
		t := x[lo:min(lo+len(neg), len(x))]
		for i, v := range t {
			neg[i] = v < 0
			t[i] = k * abs32(v)
		}
		Exp(t)
		for i, e := range t {
			v := c * (1 - e) / (1 + e)
			if neg[i] {
				v = -v
			}
			t[i] = v
		}
	}
}

// GELU sets x[i] = gelu(x[i]) = x/2 · (1 + erf(x/√2)), the exact GELU of
// BERT's MLP (PyTorch's default approximate="none").
func GELU(x []float32) {
	for i, v := range x {
		x[i] = float32(0.5 * float64(v) * (1 + math.Erf(float64(v)/math.Sqrt2)))
	}
}
