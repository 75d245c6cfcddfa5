package kernels

import (
	"fmt"
	"math"
	"testing"
)

// TestAffineBiasKernels checks the kernels of the MLX bias term in use
// (assembly where the CPU has it) against the plain Go ones, for block
// counts that take the four-block loop, the one-block loop and both, and
// every group count of the MLX group sizes.
func TestAffineBiasKernels(t *testing.T) {
	rng := newRand(31)
	for _, groups := range []int{1, 9, 24} {
		for _, nblk := range []int{1, 3, 4, 9} {
			t.Run(fmt.Sprintf("groups=%d/blocks=%d", groups, nblk), func(t *testing.T) {
				b, xs := randFloats(rng, nblk*groups*biasRows, 1), randFloats(rng, groups, 4)
				b16 := make([]uint16, len(b))
				for i, v := range b {
					b16[i] = f32ToF16(v)
				}
				out := randFloats(rng, nblk*biasRows+1, 1)
				got, want := make([]float32, len(out)), make([]float32, len(out))
				for _, half := range []bool{false, true} {
					copy(got, out)
					copy(want, out)
					if half {
						fastKernels.affineBias16(b16, xs, nblk, got)
						affineBiasRef(b16, xs, nblk, want)
					} else {
						fastKernels.affineBias(b, xs, nblk, got)
						affineBiasRef(b, xs, nblk, want)
					}
					checkClose(t, got, want, 1e-5*float64(groups))
				}
			})
		}
	}
	for _, gsize := range []int{32, 64, 128} {
		t.Run(fmt.Sprintf("sums/gsize=%d", gsize), func(t *testing.T) {
			x := randFloats(rng, 5*gsize, 1)
			got, want := make([]float32, 5), make([]float32, 5)
			fastKernels.groupSums(x, gsize, got)
			groupSumsRef(x, gsize, want)
			checkClose(t, got, want, 1e-5*float64(gsize))
		})
	}
}

// checkClose fails when an element of got is further than tol from want.
func checkClose(t *testing.T, got, want []float32, tol float64) {
	t.Helper()
	for i := range want {
		if d := math.Abs(float64(got[i]) - float64(want[i])); d > tol || math.IsNaN(float64(got[i])) {
			t.Fatalf("element %d: %v, want %v (±%v)", i, got[i], want[i], tol)
		}
	}
}

// TestAffineBias16x4 checks that the four-row bias kernel gives each
// output exactly what the one-row kernel gives it, and leaves the outputs
// past its blocks alone.
func TestAffineBias16x4(t *testing.T) {
	if fastKernels.affineBias16x4 == nil {
		t.Skip("no four-row bias kernel on this CPU or build")
	}
	rng := newRand(32)
	for _, groups := range []int{1, 16, 48} {
		for _, nblk := range []int{1, 2, 5} {
			t.Run(fmt.Sprintf("groups=%d/blocks=%d", groups, nblk), func(t *testing.T) {
				b16 := make([]uint16, nblk*groups*biasRows)
				for i, v := range randFloats(rng, len(b16), 1) {
					b16[i] = f32ToF16(v)
				}
				xs := randFloats(rng, 4*groups, 4)
				ostride := nblk*biasRows + 3
				got := randFloats(rng, 4*ostride, 1)
				want := append([]float32(nil), got...)
				fastKernels.affineBias16x4(b16, xs, nblk, got, ostride)
				for r := range 4 {
					fastKernels.affineBias16(b16, xs[r*groups:(r+1)*groups], nblk, want[r*ostride:])
				}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("output %d: %v, want %v", i, got[i], want[i])
					}
				}
			})
		}
	}
}
