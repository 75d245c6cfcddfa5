package sample

import (
	"slices"
	"testing"
)

// sorted returns the candidates of logits sorted as the filters expect.
func sorted(logits []float32) []TokenLogit { return TopK(nil, logits, len(logits)) }

// filters runs each filter on candidates sorted from logits.
var filters = map[string]func(c []TokenLogit, p float64) []TokenLogit{
	"top_p": func(c []TokenLogit, p float64) []TokenLogit {
		c, _ = topP(c, nil, p)
		return c
	},
	"min_p": minP,
	"typical_p": func(c []TokenLogit, p float64) []TokenLogit {
		c, _, _ = typical(c, p, nil, nil)
		return c
	},
}

func TestFilters(t *testing.T) {
	// The entropy of {0.4, 0.3, 0.2, 0.1} is 1.2799 nats; −log p is 0.916,
	// 1.204, 1.609, 2.303, so the order of typicality is 1, 2, 0, 3.
	typ := []float64{0.4, 0.3, 0.2, 0.1}
	tests := []struct {
		filter, name string
		probs        []float64
		p            float64
		want         []int32 // kept ids, by probability
	}{
		{"top_p", "reaches p at second", []float64{0.5, 0.3, 0.15, 0.05}, 0.7, []int32{0, 1}},
		{"top_p", "first alone reaches p", []float64{0.5, 0.25, 0.25}, 0.45, []int32{0}},
		{"top_p", "unsorted input", []float64{0.1, 0.6, 0.3}, 0.8, []int32{1, 2}},
		{"top_p", "small p keeps the top", []float64{0.4, 0.35, 0.25}, 0.01, []int32{0}},
		{"top_p", "p 1 keeps all", []float64{0.7, 0.2, 0.1}, 1, []int32{0, 1, 2}},
		{"top_p", "ties by id", []float64{0.3, 0.3, 0.3, 0.1}, 0.5, []int32{0, 1}},
		// min_p thresholds are p × the largest probability (0.5 here).
		{"min_p", "half of max", []float64{0.5, 0.3, 0.2}, 0.5, []int32{0, 1}},
		{"min_p", "tenth of max", []float64{0.5, 0.3, 0.16, 0.04}, 0.1, []int32{0, 1, 2}},
		{"min_p", "p 1 keeps the max and its ties", []float64{0.4, 0.2, 0.4}, 1, []int32{0, 2}},
		{"min_p", "p 0 keeps all", []float64{0.9, 0.1}, 0, []int32{0, 1}},
		{"typical_p", "most typical only", typ, 0.25, []int32{1}},
		{"typical_p", "two most typical", typ, 0.5, []int32{1, 2}},
		{"typical_p", "three", typ, 0.85, []int32{0, 1, 2}},
		{"typical_p", "uniform keeps in id order", []float64{0.25, 0.25, 0.25, 0.25}, 0.5, []int32{0, 1}},
		{"typical_p", "p 1 keeps all", []float64{0.6, 0.4}, 1, []int32{0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.filter+"/"+tc.name, func(t *testing.T) {
			got := filters[tc.filter](sorted(logitsOf(tc.probs...)), tc.p)
			if !slices.Equal(ids(got), tc.want) {
				t.Errorf("%s %v kept %v, want %v", tc.filter, tc.p, ids(got), tc.want)
			}
		})
	}
}

func TestDraw(t *testing.T) {
	// Candidates with probabilities {0.5, 0.3, 0.2} at temperature 1: u
	// selects the first whose cumulative probability exceeds it.
	c := sorted(logitsOf(0.5, 0.3, 0.2))
	tests := []struct {
		name        string
		temperature float64
		u           float64
		want        int32
	}{
		{"first", 1, 0.49, 0},
		{"second", 1, 0.51, 1},
		{"third", 1, 0.81, 2},
		{"zero", 1, 0, 0},
		{"almost one", 1, 0.999999, 2},
		// At temperature 0.5 the weights are squared: {0.25, 0.09, 0.04}/0.38.
		{"sharper", 0.5, 0.25 / 0.38 * 0.99, 0},
		{"sharper second", 0.5, 0.25/0.38 + 0.01, 1},
		{"sharper third", 0.5, 0.34/0.38 + 0.01, 2},
	}
	for _, tc := range tests {
		if got, _ := draw(c, 1/tc.temperature, tc.u, nil); got != tc.want {
			t.Errorf("%s: draw = %d, want %d", tc.name, got, tc.want)
		}
	}
}
