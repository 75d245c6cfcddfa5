package sample

import (
	"math"
	"testing"
)

func TestLogSoftmax(t *testing.T) {
	tests := []struct {
		name   string
		logits []float32
	}{
		{"small", []float32{1, 2, 3, -4}},
		{"large values", []float32{1000, 999, 990}},
		{"with a masked entry", []float32{0, float32(math.Inf(-1)), 1}},
		{"vocabulary", randomLogits(151936, 5)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := refLogSoftmax(tc.logits)
			got := LogSoftmax(nil, tc.logits)
			for i := range want {
				if math.IsInf(want[i], -1) && math.IsInf(float64(got[i]), -1) {
					continue
				}
				if d := math.Abs(float64(got[i]) - want[i]); d > 1e-5*math.Max(1, math.Abs(want[i])) {
					t.Fatalf("entry %d: %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
}

func TestLogSumExpEmpty(t *testing.T) {
	tests := []struct {
		name   string
		logits []float32
	}{
		{"empty", nil},
		{"all masked", []float32{float32(math.Inf(-1))}},
		{"all NaN", []float32{float32(math.NaN())}},
	}
	for _, tc := range tests {
		if got := LogSumExp(tc.logits); !math.IsInf(got, -1) {
			t.Errorf("%s: LogSumExp = %v, want -Inf", tc.name, got)
		}
	}
}

// TestSampleLogprobs checks that the reported log-probabilities are those of
// the raw logits, whatever the penalties, bias and temperature.
func TestSampleLogprobs(t *testing.T) {
	p := Defaults()
	p.Temperature, p.TopK, p.Seed = 0.5, 50, seed(1)
	p.RepetitionPenalty, p.PresencePenalty = 1.3, 1
	p.LogitBias = map[int32]float64{4: 5}
	p.Logprobs, p.TopLogprobs = true, 5
	raw := randomLogits(4096, 11)
	s := newSampler(t, p, len(raw))
	if err := s.AddPrompt([]int32{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	want := refLogSoftmax(raw)
	top := refTopK(raw, 5)
	for range 20 {
		r, err := s.Sample(raw)
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(float64(r.Logprob) - want[r.Token]); d > 1e-5 {
			t.Fatalf("token %d: logprob %v, want %v", r.Token, r.Logprob, want[r.Token])
		}
		if len(r.Top) != len(top) {
			t.Fatalf("%d top logprobs, want %d", len(r.Top), len(top))
		}
		for i, e := range r.Top {
			if e.ID != top[i].ID || math.Abs(float64(e.Logprob)-want[e.ID]) > 1e-5 {
				t.Fatalf("top %d: %+v, want id %d logprob %v", i, e, top[i].ID, want[top[i].ID])
			}
		}
	}
}
