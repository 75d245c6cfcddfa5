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
			r := newRopeTable(10000, 8, tt.scaling, false)
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
		rope(tt.style, x, 4, 2, cos, sin)
		for i := range x {
			if x[i] != tt.want[i] {
				t.Errorf("style %d: %v, want %v", tt.style, x, tt.want)
				break
			}
		}
	}
}

// TestLongRope checks LongRoPE: the short or the long per-pair divisors,
// and cos and sin scaled by √(1 + ln(factor)/ln(original)) unless the
// config gives the attention factor.
func TestLongRope(t *testing.T) {
	s := config.RopeScaling{Type: config.RopeLongRope, Factor: 32, OriginalContext: 4096,
		ShortFactor: []float32{1, 1.5, 2, 3}, LongFactor: []float32{2, 4, 8, 16}}
	mscale := math.Sqrt(1 + math.Log(32)/math.Log(4096))
	for _, tt := range []struct {
		long    bool
		factors []float32
		attn    float32
		mscale  float64
	}{{false, s.ShortFactor, 0, mscale}, {true, s.LongFactor, 0, mscale}, {true, s.LongFactor, 1.25, 1.25}} {
		s.AttnFactor = tt.attn
		r := newRopeTable(10000, 8, s, tt.long)
		cos, sin := make([]float32, 4), make([]float32, 4)
		r.angles(100, cos, sin)
		for j := range 4 {
			a := 100 * math.Pow(10000, -2*float64(j)/8) / float64(tt.factors[j])
			if math.Abs(float64(cos[j])-tt.mscale*math.Cos(a)) > 1e-4 || math.Abs(float64(sin[j])-tt.mscale*math.Sin(a)) > 1e-4 {
				t.Errorf("long %v attn %v pair %d: cos %v sin %v, want %v×(%v, %v)", tt.long, tt.attn, j, cos[j], sin[j],
					tt.mscale, math.Cos(a), math.Sin(a))
			}
		}
	}
}
