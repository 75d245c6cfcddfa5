// Package llama registers the Llama architecture (also Mistral, SmolLM2,
// TinyLlama and Llama 3 with its rope scaling): RMSNorm, grouped-query
// attention with RoPE, a SwiGLU MLP, tied or separate output.
package llama

import "github.com/mlxrun/mlx/runtime/model"

func init() {
	model.Register(model.Arch{
		Name: "llama",
		// llama.cpp's converter permutes the Q and K rows of Llama models so
		// that RoPE rotates adjacent pairs.
		GGUFRope: model.RopeInterleaved,
		GGUF:     model.GGUFNames,
		HF:       model.HFNames,
	})
}
