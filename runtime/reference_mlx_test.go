package runtime

import (
	"testing"

	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

// TestReferenceLogprobsMLX compares the MLX 4-bit fixture with the exact
// run of its dequantized copy (f32kv-nofa) both ways the kernels compute
// it: the float kernels (SetAffineInt8(false)) within 1e-3 at every step,
// and the default integer path, whose activations are quantized to 8 bits
// as ggml quantizes them for Q4_0, within the differences testdata/README.md
// measures between llama.cpp's quantized runs and exact math (0.25–0.73,
// 62–70 of 72 argmax): at most 0.75, and the same argmax wherever the
// reference margin exceeds that.
func TestReferenceLogprobsMLX(t *testing.T) {
	tests := []struct {
		name string
		int8 bool
		tol  float64
	}{
		{"float kernels", false, 1e-3},
		{"integer path", true, 0.75},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kernels.SetAffineInt8(tt.int8)
			e := loadEngine(t, kvcache.F32, "models", "llama-tiny-mlx-4bit")
			kernels.SetAffineInt8(true)
			a := compareCases(t, e, readReference(t, "llama-tiny-mlx-4bit-dequant-F32.json", "f32kv-nofa"), tt.tol)
			t.Logf("max error %.2g, argmax %d/%d, %d steps within %g", a.maxErr, a.argmax, a.steps, a.tight, tightTol)
			if a.maxErr > tt.tol {
				t.Errorf("max error %.3g exceeds %.3g", a.maxErr, tt.tol)
			}
			if a.mismatch > 0 {
				t.Errorf("%d steps with a different argmax where the reference margin exceeds %g", a.mismatch, tt.tol)
			}
		})
	}
}
