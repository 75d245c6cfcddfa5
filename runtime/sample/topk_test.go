package sample

import (
	"math"
	"slices"
	"testing"
)

// refTopK sorts every entry above -Inf (NaN excluded) and keeps k.
func refTopK(l []float32, k int) []TokenLogit {
	var all []TokenLogit
	for i, x := range l {
		if x > float32(math.Inf(-1)) {
			all = append(all, TokenLogit{ID: int32(i), Logit: x})
		}
	}
	slices.SortStableFunc(all, func(a, b TokenLogit) int {
		switch {
		case a.Logit > b.Logit:
			return -1
		case a.Logit < b.Logit:
			return 1
		}
		return 0
	})
	return all[:min(k, len(all))]
}

func TestTopK(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	tests := []struct {
		name   string
		logits []float32
		k      int
	}{
		{"ties keep lower ids", []float32{3, 1, 3, 3, 2}, 2},
		{"all equal", []float32{5, 5, 5, 5}, 3},
		{"k above length", []float32{0.5, -1, 2}, 10},
		{"k zero", []float32{1, 2}, 0},
		{"masked and NaN skipped", []float32{-inf, nan, 1, -inf, 0}, 4},
		{"+Inf kept", []float32{1, inf, 0}, 2},
		{"random", randomLogits(5000, 7), 40},
		{"random large k", randomLogits(3000, 8), 2999},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := TopK(nil, tc.logits, tc.k)
			want := refTopK(tc.logits, tc.k)
			if !slices.Equal(got, want) {
				t.Errorf("TopK = %v, want %v", got, want)
			}
		})
	}
}

func TestTopKReusesDst(t *testing.T) {
	l := randomLogits(1000, 3)
	dst := make([]TokenLogit, 0, 40)
	if allocs := testing.AllocsPerRun(10, func() { dst = TopK(dst, l, 40) }); allocs != 0 {
		t.Errorf("TopK allocates %v times with room in dst", allocs)
	}
}

func TestArgmax(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	tests := []struct {
		name   string
		logits []float32
		want   int
	}{
		{"tie takes lowest id", []float32{1, 3, 3, 2}, 1},
		{"NaN first", []float32{nan, 0, 2}, 2},
		{"all masked", []float32{-inf, -inf}, -1},
		{"empty", nil, -1},
	}
	for _, tc := range tests {
		if got := argmax(tc.logits); got != tc.want {
			t.Errorf("%s: argmax = %d, want %d", tc.name, got, tc.want)
		}
	}
}
