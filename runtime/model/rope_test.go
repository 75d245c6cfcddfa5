package model

import (
	"math"
	"testing"

	"github.com/mlxrun/mlx/models/config"
)

// TestRopeAngles checks the float32 recurrence of the angles against the
// exact θ·base^(-2j/d), with and without scaling.
func TestRopeAngles(t *testing.T) {
	tests := []struct {
		name    string
		scaling config.RopeScaling
		div     func(j int) float64
	}{
		{"none", config.RopeScaling{}, func(int) float64 { return 1 }},
		{"linear", config.RopeScaling{Type: config.RopeLinear, Factor: 4}, func(int) float64 { return 4 }},
		{"per pair", config.RopeScaling{Type: config.RopeLlama3, Freqs: []float32{1, 2, 4, 8}}, func(j int) float64 { return math.Exp2(float64(j)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRopeTable(10000, 8, tt.scaling)
			cos, sin := make([]float32, 4), make([]float32, 4)
			for _, pos := range []int{0, 1, 17, 1000} {
				r.angles(pos, cos, sin)
				for j := range 4 {
					a := float64(pos) * math.Pow(10000, -2*float64(j)/8) / tt.div(j)
					if math.Abs(float64(cos[j])-math.Cos(a)) > 1e-3 || math.Abs(float64(sin[j])-math.Sin(a)) > 1e-3 {
						t.Errorf("pos %d pair %d: cos %v sin %v, want %v %v", pos, j, cos[j], sin[j], math.Cos(a), math.Sin(a))
					}
				}
			}
		})
	}
}

// TestRopeLayouts checks which dimensions each layout pairs.
func TestRopeLayouts(t *testing.T) {
	cos, sin := []float32{0, 1}, []float32{1, 0} // pair 0 turns by 90°, pair 1 stays
	tests := []struct {
		style RopeStyle
		want  []float32
	}{
		{RopeInterleaved, []float32{-2, 1, 3, 4}}, // (x0, x1) turn
		{RopeNeox, []float32{-3, 2, 1, 4}},        // (x0, x2) turn
	}
	for _, tt := range tests {
		x := []float32{1, 2, 3, 4}
		rope(tt.style, x, 4, cos, sin)
		for i := range x {
			if x[i] != tt.want[i] {
				t.Errorf("style %d: %v, want %v", tt.style, x, tt.want)
				break
			}
		}
	}
}
