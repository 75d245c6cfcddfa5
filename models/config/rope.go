package config

import (
	"fmt"
	"math"
)

// Rope scaling types.
const (
	RopeLinear   = "linear"
	RopeLlama3   = "llama3"
	RopeYarn     = "yarn"
	RopeLongRope = "longrope"
)

// ropeParameters returns the readers of transformers 5's rope_parameters:
// the whole object, or with one entry per layer type, the full-attention
// and the sliding-window entries. A reader that is absent reads nothing
// (every value its default).
func ropeParameters(r *reader) (global, local *reader) {
	global = r.sub("rope_parameters")
	if global == nil {
		return &reader{f: fields{}, parent: r}, &reader{f: fields{}, parent: r}
	}
	if full := global.sub("full_attention"); full != nil {
		if local = global.sub("sliding_attention"); local == nil {
			local = &reader{f: fields{}, parent: r}
		}
		return full, local
	}
	return global, &reader{f: fields{}, parent: r}
}

// hfRope reads rope_scaling, else the scaling keys of rope_parameters (rp);
// errors are left in r.
func hfRope(r, rp *reader, m *Model) RopeScaling {
	s := r.sub("rope_scaling")
	if s == nil {
		s = rp
	}
	typ := s.str("rope_type", s.str("type", ""))
	var out RopeScaling
	switch typ {
	case "", "default", "mrope":
		// Multimodal RoPE (mrope) rotates sections of each head by time,
		// height and width positions; for text all three are the token's
		// position, which is plain RoPE.
		return RopeScaling{}
	case "proportional":
		// Gemma 4's full-attention RoPE (Model.RopeProportional), with
		// frequencies divided by factor as linear scaling does.
		if f := s.float("factor", 1); f != 1 {
			return RopeScaling{Type: RopeLinear, Factor: float32(f)}
		}
		return RopeScaling{}
	case RopeLinear:
		out = RopeScaling{Type: typ, Factor: need(s, "factor")}
	case RopeLlama3:
		out = RopeScaling{Type: typ, Factor: need(s, "factor"),
			LowFreqFactor: need(s, "low_freq_factor"), HighFreqFactor: need(s, "high_freq_factor"),
			OriginalContext: int(need(s, "original_max_position_embeddings"))}
	case RopeYarn:
		out = RopeScaling{Type: typ, Factor: need(s, "factor"),
			OriginalContext: s.int("original_max_position_embeddings", m.ContextLength),
			BetaFast:        float32(s.float("beta_fast", 32)), BetaSlow: float32(s.float("beta_slow", 1)),
			AttnFactor: float32(s.float("attention_factor", 0)), NoTruncate: !s.bool("truncate", true)}
	case RopeLongRope, "su":
		orig := s.int("original_max_position_embeddings", r.int("original_max_position_embeddings", 0))
		out = RopeScaling{Type: RopeLongRope, OriginalContext: orig, AttnFactor: float32(s.float("attention_factor", 0)),
			ShortFactor: s.floats("short_factor", maxRopeDim/2), LongFactor: s.floats("long_factor", maxRopeDim/2)}
		// The stretch sets the attention factor: the config's factor, else
		// the context over the original one, as transformers takes it.
		if out.Factor = float32(s.float("factor", 0)); out.Factor <= 0 && orig > 0 {
			out.Factor = float32(m.ContextLength) / float32(orig)
		}
	default:
		r.setErr(fmt.Errorf("%w: rope_scaling type %.80q (supported: linear, llama3, yarn, longrope)", ErrUnsupported, typ))
	}
	return out
}

// need reads a required number.
func need(r *reader, key string) float32 {
	if !r.has(key) {
		r.fail(key, "missing")
	}
	return float32(r.float(key, 0))
}

// Llama3Freqs returns the divisor of each rotary frequency pair under llama3
// scaling (ropeDim/2 values): 1 for short wavelengths, Factor for long ones,
// and a smooth blend between, as Llama 3.1 defines it. s must hold valid
// llama3 parameters.
func Llama3Freqs(s RopeScaling, ropeDim int, theta float32) []float32 {
	orig := float64(s.OriginalContext)
	low, high, factor := float64(s.LowFreqFactor), float64(s.HighFreqFactor), float64(s.Factor)
	lowWavelen, highWavelen := orig/low, orig/high
	out := make([]float32, ropeDim/2)
	for i := range out {
		freq := math.Pow(float64(theta), -float64(2*i)/float64(ropeDim))
		wavelen := 2 * math.Pi / freq
		switch {
		case wavelen < highWavelen:
			out[i] = 1
		case wavelen > lowWavelen:
			out[i] = float32(factor)
		default:
			smooth := (orig/wavelen - low) / (high - low)
			out[i] = float32(1 / ((1-smooth)/factor + smooth))
		}
	}
	return out
}

// validate checks the scaling against the model's rotary dimensions.
func (s *RopeScaling) validate(ropeDim int) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: rope scaling %s: %s", ErrInvalid, s.Type, fmt.Sprintf(format, args...))
	}
	if s.Type == "" {
		return nil
	}
	if !finiteIn(float64(s.Factor), 0, maxRopeFactor) || (s.Factor == 0 && s.Type != RopeLongRope && s.Freqs == nil) {
		return bad("factor %v out of range (0, %d]", s.Factor, maxRopeFactor)
	}
	if s.OriginalContext < 0 || s.OriginalContext > maxContext {
		return bad("original context %d out of range", s.OriginalContext)
	}
	for _, v := range []float32{s.LowFreqFactor, s.HighFreqFactor, s.BetaFast, s.BetaSlow, s.AttnFactor} {
		if !finiteIn(float64(v), 0, maxRopeFactor) {
			return bad("parameter %v out of range", v)
		}
	}
	switch s.Type {
	case RopeLlama3:
		if s.Freqs == nil && (s.HighFreqFactor <= s.LowFreqFactor || s.LowFreqFactor <= 0 || s.OriginalContext == 0) {
			return bad("needs 0 < low_freq_factor < high_freq_factor and an original context")
		}
	case RopeYarn:
		if s.OriginalContext == 0 || s.BetaFast == 0 || s.BetaSlow == 0 {
			return bad("needs an original context and beta_fast, beta_slow above 0")
		}
	case RopeLongRope:
		if len(s.ShortFactor) != ropeDim/2 || len(s.LongFactor) != ropeDim/2 {
			return bad("short and long factors need %d values each, got %d and %d", ropeDim/2, len(s.ShortFactor), len(s.LongFactor))
		}
	}
	if s.Freqs != nil && len(s.Freqs) != ropeDim/2 {
		return bad("%d frequency factors for %d rotary dimensions", len(s.Freqs), ropeDim)
	}
	for _, list := range [][]float32{s.ShortFactor, s.LongFactor, s.Freqs} {
		for _, v := range list {
			if !finiteIn(float64(v), 0, maxRopeFactor) || v == 0 {
				return bad("factor %v out of range", v)
			}
		}
	}
	return nil
}

// finiteIn reports whether lo <= v <= hi (false for NaN).
func finiteIn(v, lo, hi float64) bool { return v >= lo && v <= hi }
