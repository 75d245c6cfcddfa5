// Package qwen3 registers the Qwen3 family: the Llama layer with an
// explicit head size and a per-head RMSNorm of queries and keys before RoPE.
package qwen3

import (
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/model"
)

// qwen3 is Qwen3Config's defaults.
var qwen3 = config.Family{Arch: "qwen3", HF: []string{"Qwen3ForCausalLM"}, ModelTypes: []string{"qwen3"},
	GGUF: []string{"qwen3"}, Vocab: 151936, Heads: 32, HeadDim: 128, MaxPos: 32768, Eps: 1e-6, Theta: 10000,
	Act: "silu", BOS: -1, EOS: -1, Sliding: config.GatedSliding, Window: 4096}

func init() {
	model.Register(model.Family{
		Config:   []config.Family{qwen3},
		GGUFRope: model.RopeNeox,
		GGUF:     model.GGUFNames,
		HF:       model.HFNames,
		Blocks:   func(*config.Model) (model.Blocks, error) { return model.Blocks{QKNorm: true}, nil },
	})
}
