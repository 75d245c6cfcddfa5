package model

import (
	"math"
	"testing"

	"github.com/mlxrun/mlx/models/config"
)

// TestYarnAngles checks YaRN's angles and attention factor against a
// direct computation of its definition: each pair's frequency blends the
// interpolated base^(-2j/d)/factor and the extrapolated base^(-2j/d) by a
// ramp between the dimensions where the pair turns beta_fast and beta_slow
// times over the original context (the ends rounded outward unless
// truncation is off), and cos and sin are scaled by 1 + 0.1·ln(factor).
func TestYarnAngles(t *testing.T) {
	const theta, d, factor, orig = 150000.0, 32, 32.0, 4096
	// The dimension at which a pair turns rot times over the context.
	dimAt := func(rot float64) float64 {
		return d * math.Log(orig/(rot*2*math.Pi)) / (2 * math.Log(theta))
	}
	for _, truncate := range []bool{true, false} {
		s := config.RopeScaling{Type: config.RopeYarn, Factor: factor, OriginalContext: orig, BetaFast: 32, BetaSlow: 1,
			NoTruncate: !truncate}
		lo, hi := dimAt(32), dimAt(1)
		if truncate {
			lo, hi = math.Floor(lo), math.Ceil(hi)
		}
		r := newRopeTable(theta, d, s, false)
		wantScale := 1 + 0.1*math.Log(factor)
		if math.Abs(float64(r.mscale)-wantScale) > 1e-6 {
			t.Errorf("truncate %v: attention factor %v, want %v", truncate, r.mscale, wantScale)
		}
		cos, sin := make([]float32, d/2), make([]float32, d/2)
		for _, pos := range []int{1, 7, 100, 1500} {
			r.angles(pos, cos, sin)
			for j := range d / 2 {
				ramp := math.Min(1, math.Max(0, (float64(j)-lo)/(hi-lo)))
				base := math.Pow(theta, -2*float64(j)/d)
				freq := base/factor*ramp + base*(1-ramp)
				a := float64(pos) * freq
				if math.Abs(float64(cos[j])-wantScale*math.Cos(a)) > 2e-3 || math.Abs(float64(sin[j])-wantScale*math.Sin(a)) > 2e-3 {
					t.Fatalf("truncate %v, position %d, pair %d: cos %v sin %v, want %v %v", truncate, pos, j,
						cos[j], sin[j], wantScale*math.Cos(a), wantScale*math.Sin(a))
				}
			}
		}
	}
	// The two rounding modes differ for these parameters (4.04 to 8.70).
	a := newRopeTable(theta, d, config.RopeScaling{Type: config.RopeYarn, Factor: factor, OriginalContext: orig, BetaFast: 32, BetaSlow: 1}, false)
	b := newRopeTable(theta, d, config.RopeScaling{Type: config.RopeYarn, Factor: factor, OriginalContext: orig, BetaFast: 32, BetaSlow: 1, NoTruncate: true}, false)
	if a.factors[6] == b.factors[6] {
		t.Errorf("pair 6 has divisor %v with and without truncation", a.factors[6])
	}
}

// TestYarnAttentionFactor checks that a config's attention_factor replaces
// the derived one, and that a factor of 1 scales nothing.
func TestYarnAttentionFactor(t *testing.T) {
	r := newRopeTable(10000, 8, config.RopeScaling{Type: config.RopeYarn, Factor: 4, OriginalContext: 512, BetaFast: 32,
		BetaSlow: 1, AttnFactor: 0.75}, false)
	if r.mscale != 0.75 {
		t.Errorf("attention factor %v, want the config's 0.75", r.mscale)
	}
	r = newRopeTable(10000, 8, config.RopeScaling{Type: config.RopeYarn, Factor: 1, OriginalContext: 512, BetaFast: 32, BetaSlow: 1}, false)
	for j, f := range r.factors {
		if r.mscale != 1 || f != 1 {
			t.Fatalf("factor 1: pair %d divisor %v, attention factor %v, want 1 and 1", j, f, r.mscale)
		}
	}
}
