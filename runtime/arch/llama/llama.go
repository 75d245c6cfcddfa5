// Package llama registers the Llama family (also Mistral, SmolLM2,
// TinyLlama and Llama 3 with its rope scaling): RMSNorm, grouped-query
// attention with RoPE, a SwiGLU MLP, tied or separate output.
package llama

import (
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/model"
)

// llama is LlamaConfig's defaults; Mistral is MistralConfig's, the same
// layer with a sliding window.
var (
	llama = config.Family{Arch: "llama", HF: []string{"LlamaForCausalLM"}, ModelTypes: []string{"llama"},
		GGUF: []string{"llama"}, Vocab: 32000, Heads: 32, MaxPos: 2048, Eps: 1e-6, Theta: 10000, Act: "silu",
		BOS: 1, EOS: 2}
	mistral = config.Family{Arch: "llama", HF: []string{"MistralForCausalLM"}, ModelTypes: []string{"mistral"},
		Vocab: 32000, Heads: 32, KVHeads: 8, MaxPos: 4096 * 32, Eps: 1e-6, Theta: 10000, Act: "silu",
		BOS: 1, EOS: 2, Sliding: config.KeySliding, Window: 4096}
)

func init() {
	model.Register(model.Family{
		Config: []config.Family{llama, mistral},
		// llama.cpp's converter permutes the Q and K rows of Llama models so
		// that RoPE rotates adjacent pairs.
		GGUFRope: model.RopeInterleaved,
		GGUF:     model.GGUFNames,
		HF:       model.HFNames,
		Blocks:   model.Standard,
	})
}
