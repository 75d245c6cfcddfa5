package kernels

import (
	"math"
	"testing"
)

// expInputs returns n values spread over the range softmax and SiLU meet,
// with the edges (0, ±86, ±88, ±100, -Inf) among them.
func expInputs(n int, scale float64) []float32 {
	rng := newRand(uint64(n) + 50)
	x := randFloats(rng, n, scale)
	edges := []float32{0, -86, 86, -88, 88, -100, 100, float32(math.Inf(-1)), -1e-30, 1e-30}
	for i := 0; i < n && i < len(edges); i++ {
		x[(i*7)%n] = edges[i]
	}
	return x
}

// inRange reports whether v is a value the kernels must reproduce: not one
// that the assembly clamps (beyond e^±86) or flushes to zero.
func inRange(v float32) bool {
	a := math.Abs(float64(v))
	return a > 1e-30 && a < 1e37
}

// TestExpKernelsMatchReference compares the exponential of Softmax (x−max,
// so the sum is finite) and SiLUMul in use with math.Exp: relative error within 1e-6, exact zeros
// for masked (-Inf) entries, and nothing written past the end.
func TestExpKernelsMatchReference(t *testing.T) {
	requireFast(t)
	for n := 0; n <= 300; n++ {
		for _, scale := range []float64{1, 30} {
			x := expInputs(n, scale)
			m := float32(0)
			for _, v := range x {
				m = max(m, v)
			}
			got := append(append([]float32(nil), x...), guardF32)
			sum := fastKernels.expShift(got[:n], m)
			want := append([]float32(nil), x...)
			wantSum := expShiftRef(want, m)
			for i := range want {
				if inRange(want[i]) && !closeTo(float64(got[i]), float64(want[i]), float64(want[i]), 1e-6) {
					t.Fatalf("exp(%v-%v) = %v, want %v", x[i], m, got[i], want[i])
				}
				if math.IsInf(float64(x[i]), -1) && got[i] != 0 {
					t.Fatalf("exp(-Inf) = %v", got[i])
				}
			}
			if !closeTo(sum, wantSum, wantSum, 1e-6) || math.Float32bits(got[n]) != math.Float32bits(guardF32) {
				t.Fatalf("n=%d: sum %v, want %v (guard %v)", n, sum, wantSum, got[n])
			}

			e := append(append([]float32(nil), x...), guardF32)
			fastKernels.exp(e[:n])
			wantE := append([]float32(nil), x...)
			expRef(wantE)
			for i := range wantE {
				if inRange(wantE[i]) && !closeTo(float64(e[i]), float64(wantE[i]), float64(wantE[i]), 1e-6) {
					t.Fatalf("exp(%v) = %v, want %v", x[i], e[i], wantE[i])
				}
			}
			if math.Float32bits(e[n]) != math.Float32bits(guardF32) {
				t.Fatalf("n=%d: Exp wrote past the end", n)
			}

			up := randFloats(newRand(uint64(n)), n, 1)
			gs := append(append([]float32(nil), x...), guardF32)
			fastKernels.siluMul(gs[:n], up)
			wantS := append([]float32(nil), x...)
			siluMulRef(wantS, up)
			for i := range wantS {
				if inRange(wantS[i]) && !closeTo(float64(gs[i]), float64(wantS[i]), math.Abs(float64(wantS[i])), 1e-6) {
					t.Fatalf("silu(%v)·%v = %v, want %v", x[i], up[i], gs[i], wantS[i])
				}
			}
			if math.Float32bits(gs[n]) != math.Float32bits(guardF32) {
				t.Fatalf("n=%d: SiLUMul wrote past the end", n)
			}
		}
	}
}
