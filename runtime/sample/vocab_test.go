package sample

import (
	"math"
	"slices"
	"testing"
)

// TestNucleusCut checks the banded top_p on the whole vocabulary against
// sorting everything.
func TestNucleusCut(t *testing.T) {
	flat := make([]float32, 3000)
	masked := randomLogits(2000, 4)
	for i := 0; i < len(masked); i += 3 {
		masked[i] = float32(math.Inf(-1))
	}
	tests := []struct {
		name   string
		logits []float32
		p      float64
	}{
		{"peaked 0.9", randomLogits(20000, 1), 0.9},
		{"peaked 0.5", randomLogits(20000, 2), 0.5},
		{"peaked 0.999", randomLogits(20000, 3), 0.999},
		{"flat", flat, 0.3},
		{"masked entries", masked, 0.95},
		{"hand-made", logitsOf(0.5, 0.3, 0.15, 0.05), 0.7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want, _ := topP(sorted(tc.logits), nil, tc.p)
			probs := make([]float32, len(tc.logits))
			got, _ := nucleusCut(nil, nil, probs, tc.logits, maxOf(tc.logits, float32(math.Inf(-1))), tc.p, nil)
			if !slices.Equal(ids(got), ids(want)) {
				t.Errorf("kept %d tokens %v, want %d %v", len(got), head(ids(got)), len(want), head(ids(want)))
			}
		})
	}
}

func head(s []int32) []int32 { return s[:min(len(s), 8)] }

func TestAbove(t *testing.T) {
	l := []float32{1, float32(math.NaN()), 3, -2, 3, float32(math.Inf(-1))}
	tests := []struct {
		name string
		thr  float32
		want []int32
	}{
		{"threshold", 1, []int32{2, 4, 0}},
		{"every finite", -math.MaxFloat32, []int32{2, 4, 0, 3}},
	}
	for _, tc := range tests {
		if got := ids(above(nil, l, tc.thr, nil)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: above = %v, want %v", tc.name, got, tc.want)
		}
	}
}
