package model

import (
	"math"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// ropeTable holds what the rotary angles of a position are computed from.
// The angles follow ggml's float32 recurrence (θ_j = pos·scale^j, one
// multiplication per pair), so that they match llama.cpp to the last bit
// rather than only to float32 precision.
type ropeTable struct {
	scale     float32   // base^(-2/d)
	freqScale float32   // 1/factor under linear scaling, else 1
	factors   []float32 // per-pair divisors (llama3, longrope), or nil
	mscale    float32   // cos and sin are multiplied by this (longrope), 1 for none
	pairs     int       // pairs rotated
	off       int       // pair j is dimensions j and j+off of a head (rotate-half layout)
}

// newRopeTable returns the table of d rotary dimensions with base theta and
// scaling s. Under LongRoPE it uses the short factors, or with long, the
// long ones.
func newRopeTable(theta float32, d int, s config.RopeScaling, long bool) ropeTable {
	t := ropeTable{pairs: d / 2, off: d / 2, freqScale: 1, factors: s.Freqs, mscale: 1}
	t.scale = float32(math.Pow(float64(theta), float64(float32(-2)/float32(d))))
	switch {
	case s.Type == config.RopeLinear && s.Factor > 0:
		t.freqScale = 1 / s.Factor
	case s.Type == config.RopeLongRope:
		t.factors = s.ShortFactor
		if long {
			t.factors = s.LongFactor
		}
		t.mscale = longRopeScale(s)
	case s.Type == config.RopeYarn:
		t.factors, t.mscale = yarnFactors(s, theta, d)
	}
	return t
}

// yarnFactors returns YaRN's per-pair divisors and attention factor for d
// rotary dimensions of base theta, as transformers computes them: pairs
// that turn fewer than BetaSlow times over the original context are
// divided by the factor (interpolated), those that turn more than BetaFast
// times are kept (extrapolated), with a linear ramp between; the cos and
// sin are scaled by the attention factor, 1 + 0.1·ln(factor) unless the
// config gives one.
func yarnFactors(s config.RopeScaling, theta float32, d int) ([]float32, float32) {
	corr := func(rot float32) float64 {
		return float64(d) * math.Log(float64(s.OriginalContext)/(float64(rot)*2*math.Pi)) / (2 * math.Log(float64(theta)))
	}
	low, high := corr(s.BetaFast), corr(s.BetaSlow)
	if !s.NoTruncate {
		low, high = math.Floor(low), math.Ceil(high)
	}
	low, high = max(low, 0), min(high, float64(d-1))
	if low == high {
		high += 0.001
	}
	factor := float64(s.Factor)
	out := make([]float32, d/2)
	for j := range out {
		extrap := 1 - min(1, max(0, (float64(j)-low)/(high-low)))
		out[j] = float32(1 / ((1-extrap)/factor + extrap))
	}
	mscale := s.AttnFactor
	if mscale <= 0 {
		mscale = 1
		if factor > 1 {
			mscale = float32(0.1*math.Log(factor) + 1)
		}
	}
	return out, mscale
}

// proportional makes t turn its pairs across a head of hd dimensions, as
// transformers' proportional RoPE (Gemma 4) does: pair j is dimensions j
// and j+hd/2, turning at base^(-2j/hd); the dimensions past the rotated
// pairs stay as they are.
func (t *ropeTable) proportional(theta float32, hd int) {
	t.scale = float32(math.Pow(float64(theta), float64(float32(-2)/float32(hd))))
	t.off = hd / 2
}

// longRopeScale returns LongRoPE's attention factor: the config's, else
// √(1 + ln(factor)/ln(original context)) for a context stretched by factor,
// as transformers computes it.
func longRopeScale(s config.RopeScaling) float32 {
	switch {
	case s.AttnFactor > 0:
		return s.AttnFactor
	case s.Factor <= 1 || s.OriginalContext <= 1:
		return 1
	}
	return float32(math.Sqrt(1 + math.Log(float64(s.Factor))/math.Log(float64(s.OriginalContext))))
}

// angles fills cos and sin (pairs values each) for position pos.
func (t *ropeTable) angles(pos int, cos, sin []float32) {
	theta := float32(pos)
	for j := range t.pairs {
		a := theta
		if t.factors != nil {
			a /= t.factors[j]
		}
		a *= t.freqScale
		s, c := math.Sincos(float64(a))
		cos[j], sin[j] = float32(c), float32(s)
		theta *= t.scale
	}
	if t.mscale != 1 {
		kernels.Scale(cos[:t.pairs], t.mscale)
		kernels.Scale(sin[:t.pairs], t.mscale)
	}
}

// rope rotates the pairs of every head of x (heads of size hd) by the
// angles in cos and sin: in the rotate-half layout pair j is dimensions j
// and j+off, interleaved it is 2j and 2j+1.
func rope(style RopeStyle, x []float32, hd, off int, cos, sin []float32) {
	half := len(cos)
	for h := 0; h+hd <= len(x); h += hd {
		v := x[h : h+hd]
		if style == RopeInterleaved {
			for j := range half {
				a, b := v[2*j], v[2*j+1]
				v[2*j] = a*cos[j] - b*sin[j]
				v[2*j+1] = a*sin[j] + b*cos[j]
			}
			continue
		}
		for j := range half {
			a, b := v[j], v[j+off]
			v[j] = a*cos[j] - b*sin[j]
			v[j+off] = a*sin[j] + b*cos[j]
		}
	}
}
