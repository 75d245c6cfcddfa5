package qwen35

import (
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/model"
)

// qwen35moe is Qwen3_5MoeTextConfig's defaults: Qwen3.5's layers with a
// mixture of experts on every layer, softmax over the experts, the top k
// renormalised, and a shared expert behind a sigmoid gate.
var qwen35moe = config.Family{Arch: "qwen35moe", HF: []string{"Qwen3_5MoeForCausalLM", "Qwen3_5MoeForConditionalGeneration"},
	ModelTypes: []string{"qwen3_5_moe_text", "qwen3_5_moe"},
	GGUF:       []string{"qwen35moe"}, Vocab: 248320, Heads: 16, KVHeads: 2, HeadDim: 256, MaxPos: 262144, Eps: 1e-6, Theta: 1e7,
	Act: "silu", BOS: -1, EOS: -1,
	DeltaNet:  &config.DeltaNet{KeyHeads: 16, KeyDim: 128, ValueHeads: 32, ValueDim: 128, ConvKernel: 4, Interval: 4},
	MoE:       config.MoE{Experts: 256, TopK: 8, FFNSize: 512, SharedFFNSize: 512, NormTopK: true, Step: 1},
	AllSparse: true, GGUFNormTopK: true}

// hfMoE holds transformers' names: the experts' gate and up projections
// stacked and fused in one tensor per layer (gate rows first), their down
// projections stacked in another.
var hfMoE, ggufMoE = func() *model.Names {
	n := linearHF(model.HFMoENames)
	n.ExpGateUp, n.ExpDown = "model.layers.%d.mlp.experts.gate_up_proj", "model.layers.%d.mlp.experts.down_proj"
	return n
}(), linearGGUF(model.GGUFMoENames)

func init() {
	model.Register(model.Family{
		Config:         []config.Family{qwen35moe},
		GGUFRope:       model.RopeNeox,
		GGUFTiledHeads: true,
		GGUF:           ggufMoE,
		HF:             hfMoE,
		Blocks: func(*config.Model) (model.Blocks, error) {
			return model.Blocks{NormOffset: true, QKNorm: true, AttnGate: true,
				Router: model.SoftmaxTopK, NormTopK: true, SharedExpert: true}, nil
		},
	})
}
