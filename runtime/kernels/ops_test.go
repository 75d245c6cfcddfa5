package kernels

import (
	"math"
	"testing"
)

func TestVectorOpsAgainstFloat64(t *testing.T) {
	rng := newRand(9)
	for _, n := range []int{1, 7, 64, 301} {
		x := randFloats(rng, n, 1)
		w := randFloats(rng, n, 1)

		dst := make([]float32, n)
		RMSNorm(dst, x, w, 1e-5)
		var ss float64
		for _, v := range x {
			ss += float64(v) * float64(v)
		}
		inv := 1 / math.Sqrt(ss/float64(n)+1e-5)
		for i := range x {
			if want := float64(x[i]) * inv * float64(w[i]); math.Abs(float64(dst[i])-want) > 1e-5*math.Abs(want)+1e-6 {
				t.Fatalf("RMSNorm n=%d [%d] = %v, want %v", n, i, dst[i], want)
			}
		}

		g := append([]float32(nil), x...)
		SiLUMul(g, w)
		for i := range x {
			xv := float64(x[i])
			if want := xv / (1 + math.Exp(-xv)) * float64(w[i]); math.Abs(float64(g[i])-want) > 1e-5*math.Abs(want)+1e-6 {
				t.Fatalf("SiLUMul n=%d [%d] = %v, want %v", n, i, g[i], want)
			}
		}

		s := append([]float32(nil), x...)
		if n > 1 {
			s[0] = float32(math.Inf(-1)) // masked
		}
		Softmax(s)
		var sum float64
		for i := range s {
			sum += float64(s[i])
		}
		if math.Abs(sum-1) > 1e-5 || n > 1 && s[0] != 0 {
			t.Fatalf("Softmax n=%d: sum %v, masked %v", n, sum, s[0])
		}

		a := append([]float32(nil), x...)
		Scale(a, 3)
		Add(a, w)
		for i := range a {
			if want := float32(x[i]*3) + w[i]; a[i] != want {
				t.Fatalf("Scale+Add n=%d [%d] = %v, want %v", n, i, a[i], want)
			}
		}
	}
}

func TestSoftmaxEdgeCases(t *testing.T) {
	Softmax(nil) // must not panic
	x := []float32{5}
	Softmax(x)
	if x[0] != 1 {
		t.Errorf("Softmax of one value = %v, want 1", x[0])
	}
	inf := float32(math.Inf(-1))
	m := []float32{inf, inf}
	Softmax(m)
	if m[0] != 0 || m[1] != 0 {
		t.Errorf("Softmax of all-masked values = %v, want zeros", m)
	}
}
