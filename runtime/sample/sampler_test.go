package sample

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// sequence samples n tokens from the same logits.
func sequence(t *testing.T, s *Sampler, logits []float32, n int) []int32 {
	t.Helper()
	out := make([]int32, n)
	for i := range out {
		r, err := s.Sample(logits)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = r.Token
	}
	return out
}

func TestSeedDeterminism(t *testing.T) {
	logits := randomLogits(2000, 9)
	configs := []struct {
		name string
		edit func(*Params)
	}{
		{"top_k", func(p *Params) { p.TopK, p.TopP, p.Temperature = 40, 0.9, 1.5 }},
		{"top_p over the vocabulary", func(p *Params) { p.TopP, p.Temperature = 0.99, 1.5 }},
		{"temperature only", func(p *Params) { p.Temperature = 2 }},
	}
	for _, tc := range configs {
		t.Run(tc.name, func(t *testing.T) {
			run := func(seed *int64) ([]int32, int64) {
				p := Defaults()
				tc.edit(&p)
				p.Seed = seed
				s := newSampler(t, p, len(logits))
				return sequence(t, s, logits, 100), s.Seed()
			}
			a, _ := run(seed(42))
			b, _ := run(seed(42))
			c, _ := run(seed(43))
			if !slices.Equal(a, b) {
				t.Errorf("seed 42 gave two sequences:\n%v\n%v", a, b)
			}
			if slices.Equal(a, c) {
				t.Errorf("seeds 42 and 43 gave the same sequence %v", a)
			}
			d, drawn := run(nil)
			if e, _ := run(&drawn); !slices.Equal(d, e) {
				t.Errorf("replaying drawn seed %d gave %v, want %v", drawn, e, d)
			}
		})
	}
}

// TestSampleFrequencies compares, for each processing path, the frequencies
// of 40000 draws with the softmax of logit/temperature over the tokens the
// filters keep. Probabilities at temperature 1 are, by token:
// 0.4197 0.2546 0.1544 0.0937 0.0568 0.0209 (entropy 1.4667 nats).
func TestSampleFrequencies(t *testing.T) {
	logits := []float32{2, 1.5, 1, 0.5, 0, -1}
	tests := []struct {
		name string
		edit func(*Params)
		kept []int32
	}{
		{"temperature only", func(p *Params) { p.Temperature = 0.7 }, []int32{0, 1, 2, 3, 4, 5}},
		{"top_k 3", func(p *Params) { p.Temperature, p.TopK = 0.7, 3 }, []int32{0, 1, 2}},
		// 0.4197 + 0.2546 ≥ 0.6
		{"top_p 0.6", func(p *Params) { p.TopP = 0.6 }, []int32{0, 1}},
		// 0.3 × 0.4197 = 0.126 ≤ 0.1544
		{"min_p 0.3", func(p *Params) { p.Temperature, p.MinP = 1.3, 0.3 }, []int32{0, 1, 2}},
		// |−log p − H| orders 1, 2, 0: 0.2546 + 0.1544 ≥ 0.35
		{"typical_p 0.35", func(p *Params) { p.TypicalP = 0.35 }, []int32{1, 2}},
		// top 4 renormalized: 0.455 0.276 0.167 0.102; 0.898 ≥ 0.85
		{"top_k 4 then top_p 0.85", func(p *Params) { p.Temperature, p.TopK, p.TopP = 0.7, 4, 0.85 }, []int32{0, 1, 2}},
	}
	const n = 40000
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Defaults()
			tc.edit(&p)
			p.Seed = seed(7)
			s := newSampler(t, p, len(logits))
			counts := make([]int, len(logits))
			for _, id := range sequence(t, s, logits, n) {
				counts[id]++
			}
			want := make([]float64, len(logits))
			total := 0.0
			for _, id := range tc.kept {
				want[id] = math.Exp(float64(logits[id]) / p.Temperature)
				total += want[id]
			}
			for id := range want {
				q := want[id] / total
				f := float64(counts[id]) / n
				if tol := 5 * math.Sqrt(q*(1-q)/n); math.Abs(f-q) > tol {
					t.Errorf("token %d: frequency %.4f, want %.4f ± %.4f", id, f, q, tol)
				}
			}
		})
	}
}

func TestGreedyTies(t *testing.T) {
	p := Defaults()
	p.Temperature = 0
	s := newSampler(t, p, 5)
	if got := sequence(t, s, []float32{1, 3, 0, 3, 3}, 3); !slices.Equal(got, []int32{1, 1, 1}) {
		t.Errorf("greedy picked %v, want the lowest tied id 1", got)
	}
}

func TestSampleErrors(t *testing.T) {
	inf := float32(math.Inf(1))
	tests := []struct {
		name   string
		logits []float32
	}{
		{"wrong length", []float32{1, 2}},
		{"all masked", []float32{-inf, -inf, -inf}},
		{"all NaN", []float32{float32(math.NaN()), float32(math.NaN()), float32(math.NaN())}},
		{"+Inf", []float32{0, inf, 1}},
	}
	for _, tc := range tests {
		for _, temp := range []float64{0, 1} {
			p := Defaults()
			p.Temperature = temp
			s := newSampler(t, p, 3)
			if _, err := s.Sample(tc.logits); !errors.Is(err, ErrLogits) {
				t.Errorf("%s at temperature %v: error %v, want ErrLogits", tc.name, temp, err)
			}
		}
	}
}

func TestAddPromptRange(t *testing.T) {
	s := newSampler(t, Defaults(), 10)
	checkParamErr(t, s.AddPrompt([]int32{1, 10}), "prompt")
	checkParamErr(t, s.AddPrompt([]int32{-1}), "prompt")
	checkParamErr(t, s.AddPrompt([]int32{0, 9}), "")
}

func TestTokenSet(t *testing.T) {
	s := NewTokenSet(5, 2, 5, 9)
	for _, tc := range []struct {
		id   int32
		want bool
	}{{5, true}, {2, true}, {9, true}, {3, false}, {-1, false}} {
		if s.Has(tc.id) != tc.want {
			t.Errorf("Has(%d) = %v, want %v", tc.id, !tc.want, tc.want)
		}
	}
	if len(s) != 3 {
		t.Errorf("set %v keeps duplicates", s)
	}
}

// TestSampleNoAllocs checks that Sample does not allocate once its buffers
// have grown (penalties excepted: their history grows with new tokens).
func TestSampleNoAllocs(t *testing.T) {
	logits := randomLogits(151936, 2)
	tests := []struct {
		name string
		edit func(*Params)
	}{
		{"greedy", func(p *Params) { p.Temperature = 0 }},
		{"top_k top_p", func(p *Params) { p.Temperature, p.TopK, p.TopP = 0.7, 40, 0.9 }},
		{"top_p over the vocabulary", func(p *Params) { p.TopP = 0.9 }},
		{"temperature only", func(p *Params) { p.Temperature = 0.8 }},
		{"typical", func(p *Params) { p.TopK, p.TypicalP = 100, 0.9 }},
		{"logprobs", func(p *Params) { p.Logprobs, p.TopLogprobs = true, 20 }},
	}
	for _, tc := range tests {
		p := Defaults()
		tc.edit(&p)
		s := newSampler(t, p, len(logits))
		sequence(t, s, logits, 2)
		allocs := testing.AllocsPerRun(5, func() {
			if _, err := s.Sample(logits); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: Sample allocates %v times per token", tc.name, allocs)
		}
	}
}
