package kernels

import (
	"math"
	"sync"
)

// GELUHalf sets x[i] to the tanh GELU as ggml's CPU backend computes it,
// which runs BERT GGUF files in llama.cpp: from a table indexed by x
// rounded to a half, holding gelu_tanh rounded to a half; 0 at or below
// -10 and x at or above 10. The values go to halves a block at a time
// with the vectorised conversion; the table has one entry per half.
func GELUHalf(x []float32) {
	t := geluHalfTable()
	var h [256]uint16
	for len(x) > 0 {
		c := x[:min(len(x), len(h))]
		F32ToF16(h[:len(c)], c)
		for i, v := range c {
			switch {
			case v <= -10:
				c[i] = 0
			case !(v >= 10): // NaN takes the table's NaN as well
				c[i] = t[h[i]]
			}
		}
		x = x[len(c):]
	}
}

// geluHalfTable holds geluHalfOf of every half, indexed by its bits.
var geluHalfTable = sync.OnceValue(func() *[1 << 16]float32 {
	t := new([1 << 16]float32)
	for h := range t {
		t[h] = geluHalfOf(f16ToF32(uint16(h)))
	}
	return t
})

// geluHalfOf is one entry of ggml's GELU table: gelu_tanh of the half h
// in float32 as ggml builds its table, 0.5·h·(1 + tanh(√(2/π)·h·(1 +
// 0.044715·h·h))) with the inner sum a fused multiply-add (as compilers
// contract it), rounded to a half. In the tail below zero the sum 1 + tanh
// cancels, and its float32 rounding decides the half.
func geluHalfOf(h float32) float32 {
	const a, c = float32(0.044715), float32(geluC)
	inner := float32(math.FMA(float64(float32(a*h)), float64(h), 1))
	t := float32(math.Tanh(float64(float32(float32(c*h) * inner))))
	return RoundF16(float32(float32(0.5*h) * float32(1+t)))
}

// geluHalfRef is GELUHalf element by element, without the table.
func geluHalfRef(x []float32) {
	for i, v := range x {
		switch {
		case v <= -10:
			x[i] = 0
		case v >= 10:
		default:
			x[i] = geluHalfOf(RoundF16(v))
		}
	}
}
