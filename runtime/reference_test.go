package runtime

import (
	"testing"

	"github.com/mlxrun/mlx/runtime/kvcache"
)

// TestReferenceLogprobs compares our log-softmax at every step of the
// llama.cpp reference continuations (teacher-forced) with llama.cpp's
// top-5 log-probabilities, within the bounds testdata/README.md justifies:
// float models against the exact run (f32kv-nofa), quantized ones against
// llama.cpp's defaults (F16 KV cache, flash attention), which the engine
// follows with a half-precision cache.
func TestReferenceLogprobs(t *testing.T) {
	tests := []struct {
		name  string
		model []string
		ref   string
		run   string
		kv    kvcache.Type
		tol   float64
		tight float64 // least share of steps within tightTol (quantized models)
	}{
		{"llama F32 gguf", []string{"gguf", "llama-tiny-F32.gguf"}, "llama-tiny-F32.json", "f32kv-nofa", kvcache.F32, 1e-3, 1},
		{"llama F32 safetensors", []string{"models", "llama-tiny"}, "llama-tiny-F32.json", "f32kv-nofa", kvcache.F32, 1e-3, 1},
		{"llama F32 gguf f16 kv", []string{"gguf", "llama-tiny-F32.gguf"}, "llama-tiny-F32.json", "f32kv-nofa", kvcache.F16, 0.03, 1},
		{"llama F16 gguf", []string{"gguf", "llama-tiny-F16.gguf"}, "llama-tiny-F16.json", "f32kv-nofa", kvcache.F32, 0.03, 1},
		{"qwen2 F16 gguf", []string{"gguf", "qwen2-tiny-F16.gguf"}, "qwen2-tiny-F16.json", "f32kv-nofa", kvcache.F32, 0.03, 1},
		{"qwen2 BF16 safetensors", []string{"models", "qwen2-tiny"}, "qwen2-tiny-F16.json", "f32kv-nofa", kvcache.F32, 0.03, 1},
		{"qwen3 F16 gguf", []string{"gguf", "qwen3-tiny-F16.gguf"}, "qwen3-tiny-F16.json", "f32kv-nofa", kvcache.F32, 0.03, 1},
		{"qwen3 BF16 safetensors", []string{"models", "qwen3-tiny"}, "qwen3-tiny-F16.json", "f32kv-nofa", kvcache.F32, 0.03, 1},
		{"qwen2 F16 gguf f16 kv", []string{"gguf", "qwen2-tiny-F16.gguf"}, "qwen2-tiny-F16.json", "f32kv-nofa", kvcache.F16, 0.03, 1},
		{"qwen3 F16 gguf f16 kv", []string{"gguf", "qwen3-tiny-F16.gguf"}, "qwen3-tiny-F16.json", "f32kv-nofa", kvcache.F16, 0.03, 1},
		{"llama Q8_0", []string{"gguf", "llama-tiny-Q8_0.gguf"}, "llama-tiny-Q8_0.json", "default", kvcache.F16, 0.3, 0.95},
		{"llama Q4_0", []string{"gguf", "llama-tiny-Q4_0.gguf"}, "llama-tiny-Q4_0.json", "default", kvcache.F16, 0.3, 0.95},
		{"k256 Q4_K_M", []string{"gguf", "llama-k256-Q4_K_M.gguf"}, "llama-k256-Q4_K_M.json", "default", kvcache.F16, 0.3, 0.6},
		{"k256 Q6_K", []string{"gguf", "llama-k256-Q6_K.gguf"}, "llama-k256-Q6_K.json", "default", kvcache.F16, 0.3, 0.6},
		{"mlx 4-bit dequant", []string{"models", "llama-tiny-mlx-4bit-dequant"}, "llama-tiny-mlx-4bit-dequant-F32.json", "f32kv-nofa", kvcache.F32, 1e-3, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := loadEngine(t, tt.kv, tt.model...)
			a := compareCases(t, e, readReference(t, tt.ref, tt.run), tt.tol)
			t.Logf("max error %.2g, argmax %d/%d, %d steps within %g", a.maxErr, a.argmax, a.steps, a.tight, tightTol)
			if a.maxErr > tt.tol {
				t.Errorf("max error %.3g exceeds %.3g", a.maxErr, tt.tol)
			}
			if share := float64(a.tight) / float64(a.steps); share < tt.tight {
				t.Errorf("%d of %d steps within %g, want at least %.0f%%", a.tight, a.steps, tightTol, 100*tt.tight)
			}
			if a.mismatch > 0 {
				t.Errorf("%d steps with a different argmax where the reference margin exceeds %g", a.mismatch, tt.tol)
			}
			checkOnDevice(t, e)
		})
	}
}
