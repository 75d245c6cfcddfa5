// Package qwen3 registers the Qwen3 architecture: the Llama block with an
// explicit head size and a per-head RMSNorm of queries and keys before RoPE.
package qwen3

import "github.com/mlxrun/mlx/runtime/model"

func init() {
	model.Register(model.Arch{
		Name:     "qwen3",
		QKNorm:   true,
		GGUFRope: model.RopeNeox,
		GGUF:     model.GGUFNames,
		HF:       model.HFNames,
	})
}
