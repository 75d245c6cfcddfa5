package sample

import (
	"math"
	"testing"
)

func TestExpShiftAccuracy(t *testing.T) {
	var src []float32
	for x := -87.0; x <= 0; x += 0.0137 {
		src = append(src, float32(x))
	}
	for _, tc := range []struct{ m, scale float64 }{{0, 1}, {0.5, 1}, {2, 1 / 0.7}, {0, 0.01}} {
		dst := make([]float32, len(src))
		sum, wantSum := expShift(dst, src, tc.m, tc.scale), 0.0
		for i, x := range src {
			want := math.Exp((float64(x) - tc.m) * tc.scale)
			wantSum += want
			if want < 1e-37 {
				continue
			}
			if rel := math.Abs(float64(dst[i])-want) / want; rel > 1e-7 {
				t.Fatalf("m %v scale %v: exp at %v = %v, want %v (relative error %g)", tc.m, tc.scale, x, dst[i], want, rel)
			}
		}
		if rel := math.Abs(sum-wantSum) / wantSum; rel > 1e-10 {
			t.Errorf("m %v scale %v: sum %v, want %v", tc.m, tc.scale, sum, wantSum)
		}
	}
}

func TestExpShiftSpecial(t *testing.T) {
	src := []float32{0, float32(math.NaN()), float32(math.Inf(-1)), -100}
	want := []float32{1, 0, 0, 0}
	dst := make([]float32, len(src))
	if sum := expShift(dst, src, 0, 1); sum != 1 {
		t.Errorf("sum %v, want 1", sum)
	}
	for i := range want {
		if dst[i] != want[i] {
			t.Errorf("exp(%v) = %v, want %v", src[i], dst[i], want[i])
		}
	}
}
