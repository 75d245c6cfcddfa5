// Package qwen2 registers the Qwen2 architecture (Qwen2, Qwen2.5): the
// Llama block with biases on the q, k and v projections.
package qwen2

import "github.com/mlxrun/mlx/runtime/model"

func init() {
	model.Register(model.Arch{
		Name:     "qwen2",
		QKVBias:  true,
		GGUFRope: model.RopeNeox,
		GGUF:     model.GGUFNames,
		HF:       model.HFNames,
	})
}
