// Package qwen3moe registers the Qwen3-MoE family: Qwen3's attention (q/k
// norms) with a mixture of experts in place of the MLP on the sparse layers
// (decoder_sparse_step, mlp_only_layers): softmax over the experts, the
// top k, renormalised when norm_topk_prob says so.
package qwen3moe

import (
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/model"
)

// qwen3moe is Qwen3MoeConfig's defaults. llama.cpp always renormalises the
// chosen experts' weights of a qwen3moe GGUF file, which says nothing of it.
var qwen3moe = config.Family{Arch: "qwen3moe", HF: []string{"Qwen3MoeForCausalLM"}, ModelTypes: []string{"qwen3_moe"},
	GGUF: []string{"qwen3moe"}, Vocab: 151936, Heads: 32, KVHeads: 4, MaxPos: 32768, Eps: 1e-6, Theta: 10000,
	Act: "silu", BOS: -1, EOS: -1, Sliding: config.GatedSliding, Window: 4096,
	MoE: config.MoE{Experts: 128, TopK: 8, FFNSize: 768, Step: 1}, GGUFNormTopK: true}

func init() {
	model.Register(model.Family{
		Config:   []config.Family{qwen3moe},
		GGUFRope: model.RopeNeox,
		GGUF:     model.GGUFMoENames,
		HF:       model.HFMoENames,
		Blocks: func(cfg *config.Model) (model.Blocks, error) {
			return model.Blocks{QKNorm: true, Router: model.SoftmaxTopK, NormTopK: cfg.MoE.NormTopK}, nil
		},
	})
}
