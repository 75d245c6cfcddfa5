package kernels

import (
	"math"
	"testing"
)

// TestGELUTanhMul checks the tanh GELU against its definition at points
// where its shape differs: large negative (0), zero, the bend, large
// positive (identity).
func TestGELUTanhMul(t *testing.T) {
	gate := []float32{-10, -1, 0, 0.5, 1, 3, 10}
	want := []float64{0, -0.15880801, 0, 0.34571401, 0.84119199, 2.99636261, 10}
	up := []float32{2, 2, 2, 2, 2, 2, 2}
	GELUTanhMul(gate, up)
	for i, g := range gate {
		if math.Abs(float64(g)-2*want[i]) > 1e-5 {
			t.Errorf("gelu_tanh #%d = %v, want %v", i, g/2, want[i])
		}
	}
}

// TestGELUTanhMulMatchesTanh checks the exponential form against the
// tanh definition over the range where GELU bends, and at values whose
// exponential overflows or underflows float32.
func TestGELUTanhMulMatchesTanh(t *testing.T) {
	var gate, up []float32
	for x := -12.0; x <= 12; x += 0.01 {
		gate, up = append(gate, float32(x)), append(up, float32(1+x/10))
	}
	gate = append(gate, -60, 60, -1e4, 1e4)
	up = append(up, 1, 1, 1, 1)
	want := append([]float32(nil), gate...)
	geluTanhRef(want, up)
	GELUTanhMul(gate, up)
	for i := range gate {
		if d := math.Abs(float64(gate[i] - want[i])); d > 1e-5*max(1, math.Abs(float64(want[i]))) {
			t.Fatalf("#%d: %v, want %v", i, gate[i], want[i])
		}
	}
}

// TestSoftcap checks c·tanh(x/c): odd, bounded by c, near the identity for
// small values.
func TestSoftcap(t *testing.T) {
	x := []float32{-1000, -30, 0, 0.01, 30, 1000}
	Softcap(x, 30)
	want := []float64{-30, -30 * math.Tanh(1), 0, 0.01, 30 * math.Tanh(1), 30}
	for i, v := range x {
		if math.Abs(float64(v)-want[i]) > 1e-4 {
			t.Errorf("softcap #%d = %v, want %v", i, v, want[i])
		}
	}
}

// TestRound checks rounding to the two half formats: √1152 (Gemma 3 1B's
// embedding scale) is 33.941 in float32, 34 in bfloat16, 33.94 in half.
func TestRound(t *testing.T) {
	s := float32(math.Sqrt(1152))
	if got := RoundBF16(s); got != 34 {
		t.Errorf("RoundBF16(%v) = %v, want 34", s, got)
	}
	if got := RoundF16(s); got != 33.9375 {
		t.Errorf("RoundF16(%v) = %v, want 33.9375", s, got)
	}
}

// TestSoftcapMatchesTanh checks the exponential form against c·tanh(x/c)
// from far below to far above the cap.
func TestSoftcapMatchesTanh(t *testing.T) {
	var x []float32
	for v := -200.0; v <= 200; v += 0.37 {
		x = append(x, float32(v))
	}
	x = append(x, 0, -1e-30, 1e30, -1e30)
	want := append([]float32(nil), x...)
	softcapRef(want, 30)
	Softcap(x, 30)
	for i := range x {
		if math.Abs(float64(x[i]-want[i])) > 1e-5*30 {
			t.Fatalf("#%d: %v, want %v", i, x[i], want[i])
		}
	}
}

// geluTanhRef is GELUTanhMul in float64 with math.Tanh.
func geluTanhRef(gate, up []float32) {
	for i, g := range gate {
		x := float64(g)
		gate[i] = float32(0.5*x*(1+math.Tanh(geluC*(x+0.044715*x*x*x)))) * up[i]
	}
}

// softcapRef is Softcap with math.Tanh in float64.
func softcapRef(x []float32, c float32) {
	for i, v := range x {
		x[i] = c * float32(math.Tanh(float64(v/c)))
	}
}
