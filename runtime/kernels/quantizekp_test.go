package kernels

import (
	"math"
	"testing"
)

// TestQuantizeKPMatchesReference checks that the activation quantizer of the
// packed K-quant kernels gives the reference bytes, on blocks with a
// negative or positive extreme, ties of magnitude and zeros; a NaN (whose
// integer conversion Go leaves to the platform) must only not stop it.
func TestQuantizeKPMatchesReference(t *testing.T) {
	rng := newRand(45)
	f := fastKernels.quantize[actQ8_KP]
	tests := []struct {
		name  string
		edit  func(x []float32)
		exact bool
	}{
		{"random", func([]float32) {}, true},
		{"negative max", func(x []float32) { x[77] = -9 }, true},
		{"tie, negative first", func(x []float32) { x[3], x[200] = -7, 7 }, true},
		{"tie, positive first", func(x []float32) { x[3], x[200] = 7, -7 }, true},
		{"zero block", func(x []float32) { clear(x[256:512]) }, true},
		{"NaN", func(x []float32) { x[5] = float32(math.NaN()) }, false},
		{"last value", func(x []float32) { x[255] = -5 }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := randFloats(rng, 3*qkK, 1)
			tt.edit(x)
			want := make([]byte, 3*kpAct)
			quantizeKPRef(want, x)
			got := make([]byte, 3*kpAct+guard)
			f(got, x)
			for i := range want {
				if tt.exact && got[i] != want[i] {
					t.Fatalf("byte %d (super-block %d, offset %d) = %#x, want %#x", i, i/kpAct, i%kpAct, got[i], want[i])
				}
			}
			for _, b := range got[len(want):] {
				if b != 0 {
					t.Fatal("wrote past the output")
				}
			}
		})
	}
}
