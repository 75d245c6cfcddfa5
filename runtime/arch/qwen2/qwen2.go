// Package qwen2 registers the Qwen2 family (Qwen2, Qwen2.5): the Llama
// layer with biases on the q, k and v projections.
package qwen2

import (
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/model"
)

// qwen2 is Qwen2Config's defaults.
var qwen2 = config.Family{Arch: "qwen2", HF: []string{"Qwen2ForCausalLM"}, ModelTypes: []string{"qwen2"},
	GGUF: []string{"qwen2"}, Vocab: 151936, Heads: 32, MaxPos: 32768, Eps: 1e-6, Theta: 10000, Act: "silu",
	Bias: true, BOS: -1, EOS: -1, Sliding: config.GatedSliding, Window: 4096}

func init() {
	model.Register(model.Family{
		Config:   []config.Family{qwen2},
		GGUFRope: model.RopeNeox,
		GGUF:     model.GGUFNames,
		HF:       model.HFNames,
		Blocks:   func(*config.Model) (model.Blocks, error) { return model.Blocks{QKVBias: true}, nil },
	})
}
