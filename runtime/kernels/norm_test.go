package kernels

import (
	"math"
	"testing"
)

// TestLayerNorm checks LayerNorm on known values (mean 2.5, variance 1.25)
// and that its output has mean b and variance w² for constant w and b.
func TestLayerNorm(t *testing.T) {
	x := []float32{1, 2, 3, 4}
	dst := make([]float32, 4)
	LayerNorm(dst, x, []float32{1, 1, 1, 1}, nil, 0)
	for i, v := range x {
		want := (float64(v) - 2.5) / math.Sqrt(1.25)
		if math.Abs(float64(dst[i])-want) > 1e-6 {
			t.Errorf("LayerNorm[%d] = %v, want %v", i, dst[i], want)
		}
	}
	rng := newRand(3)
	x = randFloats(rng, 301, 4)
	w, b := make([]float32, len(x)), make([]float32, len(x))
	for i := range w {
		w[i], b[i] = 2, 0.5
	}
	LayerNorm(x, x, w, b, 1e-12) // in place
	var sum, ss float64
	for _, v := range x {
		sum += float64(v)
	}
	mean := sum / float64(len(x))
	for _, v := range x {
		ss += (float64(v) - mean) * (float64(v) - mean)
	}
	if math.Abs(mean-0.5) > 1e-5 || math.Abs(ss/float64(len(x))-4) > 1e-4 {
		t.Errorf("mean %v variance %v, want 0.5 and 4", mean, ss/float64(len(x)))
	}
}

// TestGELU checks the erf GELU at known points: gelu(0) = 0,
// gelu(1) = Φ(1) = 0.8413447, gelu(-1) = -0.1586553, and x for large x.
func TestGELU(t *testing.T) {
	x := []float32{0, 1, -1, 10, -10}
	want := []float64{0, 0.8413447, -0.1586553, 10, 0}
	GELU(x)
	for i, w := range want {
		if math.Abs(float64(x[i])-w) > 1e-6 {
			t.Errorf("GELU[%d] = %v, want %v", i, x[i], w)
		}
	}
}

// TestGELUHalf checks ggml's table GELU against the tanh GELU: within the
// rounding of halves, with the ends of the table exact.
func TestGELUHalf(t *testing.T) {
	x := []float32{-12, -3, -0.5, 0, 0.25, 1, 4.5, 10, 11}
	y := append([]float32(nil), x...)
	GELUHalf(y)
	for i, v := range x {
		want := 0.5 * float64(v) * (1 + math.Tanh(geluC*(float64(v)+0.044715*float64(v)*float64(v)*float64(v))))
		switch {
		case v <= -10:
			want = 0
		case v >= 10:
			want = float64(v)
		}
		if math.Abs(float64(y[i])-want) > 2e-3*math.Max(1, math.Abs(want)) {
			t.Errorf("GELUHalf(%v) = %v, want about %v", v, y[i], want)
		}
	}
	if y[3] != 0 || y[7] != 10 || y[8] != 11 {
		t.Errorf("exact points: %v", y)
	}
}
