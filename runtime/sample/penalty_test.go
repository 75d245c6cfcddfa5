package sample

import (
	"math"
	"slices"
	"testing"
)

// wantPatched computes the penalized logits by the formulas of the package
// documentation.
func wantPatched(raw []float32, p Params, prompt, out []int32, eos, stopIDs []int32) []float32 {
	count := map[int32]int{}
	for _, id := range out {
		count[id]++
	}
	seen := map[int32]bool{}
	for _, id := range append(slices.Clone(prompt), out...) {
		seen[id] = true
	}
	want := slices.Clone(raw)
	for i := range want {
		id := int32(i)
		x := float64(raw[i])
		if seen[id] {
			if x < 0 {
				x *= p.RepetitionPenalty
			} else {
				x /= p.RepetitionPenalty
			}
		}
		if c := count[id]; c > 0 {
			x -= float64(c)*p.FrequencyPenalty + p.PresencePenalty
		}
		x += math.Max(-100, math.Min(100, p.LogitBias[id]))
		early := len(out) < p.MinTokens
		if (slices.Contains(eos, id) && (early || p.IgnoreEOS)) || (slices.Contains(stopIDs, id) && early) {
			x = math.Inf(-1)
		}
		want[i] = float32(x)
	}
	return want
}

// near reports whether a and b agree to float32 rounding (or are both the
// same infinity).
func near(a, b float32) bool {
	return a == b || math.Abs(float64(a-b)) <= 1e-6*math.Max(1, math.Abs(float64(b)))
}

func TestPatch(t *testing.T) {
	raw := []float32{2, -1, 0.5, -3, 4, 1, 0, -0.5}
	prompt, out := []int32{0, 1}, []int32{2, 2, 1, 3}
	eos := []int32{6}
	tests := []struct {
		name string
		edit func(*Params)
	}{
		{"nothing", func(*Params) {}},
		{"repetition", func(p *Params) { p.RepetitionPenalty = 1.5 }},
		{"repetition below 1", func(p *Params) { p.RepetitionPenalty = 0.5 }},
		{"frequency", func(p *Params) { p.FrequencyPenalty = 0.5 }},
		{"presence", func(p *Params) { p.PresencePenalty = -0.75 }},
		{"bias clamped", func(p *Params) { p.LogitBias = map[int32]float64{5: 1.5, 7: -300, 0: 250} }},
		{"min_tokens masks EOS and stop ids", func(p *Params) { p.MinTokens, p.StopTokenIDs = 5, []int32{4} }},
		{"min_tokens reached", func(p *Params) { p.MinTokens, p.StopTokenIDs = 4, []int32{4} }},
		{"ignore_eos", func(p *Params) { p.IgnoreEOS = true }},
		{"all together", func(p *Params) {
			p.RepetitionPenalty, p.FrequencyPenalty, p.PresencePenalty = 1.3, 0.4, 0.2
			p.LogitBias = map[int32]float64{2: 3, 6: 1}
			p.MinTokens, p.StopTokenIDs = 10, []int32{2}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Defaults()
			tc.edit(&p)
			s := newSampler(t, p, len(raw), eos...)
			if err := s.AddPrompt(prompt); err != nil {
				t.Fatal(err)
			}
			for _, id := range out {
				s.hist.addOutput(id)
				s.generated++
			}
			logits := slices.Clone(raw)
			s.patch(logits)
			if want := wantPatched(raw, p, prompt, out, eos, p.StopTokenIDs); !slices.EqualFunc(logits, want, near) {
				t.Errorf("patched %v, want %v", logits, want)
			}
			s.restore(logits)
			if !slices.Equal(logits, raw) {
				t.Errorf("restored %v, want %v", logits, raw)
			}
		})
	}
}

// TestSampleEOSMasks follows greedy decoding where EOS (id 0) and a stop id
// (id 1) are the most likely tokens.
func TestSampleEOSMasks(t *testing.T) {
	logits := []float32{5, 4, 3, 2}
	tests := []struct {
		name      string
		edit      func(*Params)
		want      []int32
		eosStops  bool
		stopStops bool
	}{
		{"plain", func(*Params) {}, []int32{0, 0, 0}, true, true},
		{"min_tokens 2", func(p *Params) { p.MinTokens = 2 }, []int32{2, 2, 0}, true, true},
		{"ignore_eos", func(p *Params) { p.IgnoreEOS = true }, []int32{1, 1, 1}, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Defaults()
			p.Temperature, p.StopTokenIDs = 0, []int32{1}
			tc.edit(&p)
			s := newSampler(t, p, len(logits), 0)
			var got []int32
			for range tc.want {
				r, err := s.Sample(logits)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, r.Token)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("tokens %v, want %v", got, tc.want)
			}
			if s.IsStop(0) != tc.eosStops || s.IsStop(1) != tc.stopStops || s.IsStop(2) {
				t.Errorf("IsStop(0, 1, 2) = %v %v %v, want %v %v false", s.IsStop(0), s.IsStop(1), s.IsStop(2), tc.eosStops, tc.stopStops)
			}
			if s.Generated() != len(tc.want) {
				t.Errorf("Generated = %d, want %d", s.Generated(), len(tc.want))
			}
		})
	}
}

// TestSampleRepetition checks that penalties act on the tokens the sampler
// generated: with a strong presence penalty greedy decoding cycles.
func TestSampleRepetition(t *testing.T) {
	logits := []float32{3, 2.5, 2, -5}
	p := Defaults()
	p.Temperature, p.PresencePenalty = 0, 2
	s := newSampler(t, p, len(logits))
	var got []int32
	for range 4 {
		r, err := s.Sample(logits)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Token)
	}
	// After 0 is penalized to 1, 1 leads (2.5), then 2 (2 > 0.5 and 1), then
	// 0 again (1 > 0.5 > 0).
	if want := []int32{0, 1, 2, 0}; !slices.Equal(got, want) {
		t.Errorf("tokens %v, want %v", got, want)
	}
	if !slices.Equal(logits, []float32{3, 2.5, 2, -5}) {
		t.Errorf("Sample left logits changed: %v", logits)
	}
}
