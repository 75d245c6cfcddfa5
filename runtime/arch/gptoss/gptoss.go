// Package gptoss registers the gpt-oss family: sliding-window layers
// alternating with full ones, attention sinks, YaRN RoPE, biases on every
// projection, and a mixture of experts on every layer whose router takes
// the top k logits then their softmax, and whose experts use the clamped
// SwiGLU. Hugging Face checkpoints store the experts transposed, gate and
// up interleaved, in BF16 or as MXFP4 blocks and scales.
package gptoss

import (
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/model"
)

// gptoss is GptOssConfig's defaults (gpt-oss-20b).
var gptoss = config.Family{Arch: "gpt-oss", HF: []string{"GptOssForCausalLM"}, ModelTypes: []string{"gpt_oss"},
	GGUF: []string{"gpt-oss"}, Vocab: 201088, Heads: 64, KVHeads: 8, HeadDim: 64, MaxPos: 131072, Eps: 1e-5,
	Theta: 150000, Act: "silu", Bias: true, BOS: -1, EOS: -1, Sliding: config.KeySliding, Window: 128, Pattern: 2,
	MoE: config.MoE{Experts: 32, TopK: 4, FFNSize: 2880, Step: 1}, MoEFFNKey: "intermediate_size"}

// swigluLimit is the clamp of the experts' activation.
const swigluLimit = 7.0

// hf are the names of transformers' GptOssForCausalLM.
var hf = func() *model.Names {
	n := *model.HFNames
	n.Router, n.RouterBias = "model.layers.%d.mlp.router.weight", "model.layers.%d.mlp.router.bias"
	n.ExpGateUpT, n.ExpDownT = "model.layers.%d.mlp.experts.gate_up_proj", "model.layers.%d.mlp.experts.down_proj"
	n.ExpGateUpBias, n.ExpDownBias = "model.layers.%d.mlp.experts.gate_up_proj_bias", "model.layers.%d.mlp.experts.down_proj_bias"
	n.Sinks, n.OBias = "model.layers.%d.self_attn.sinks", "model.layers.%d.self_attn.o_proj.bias"
	return &n
}()

// gguf are the names llama.cpp gives a gpt-oss file's tensors.
var gguf = func() *model.Names {
	n := *model.GGUFMoENames
	n.FFNNorm, n.RouterBias = "blk.%d.post_attention_norm.weight", "blk.%d.ffn_gate_inp.bias"
	n.ExpGateBias, n.ExpUpBias, n.ExpDownBias = "blk.%d.ffn_gate_exps.bias", "blk.%d.ffn_up_exps.bias", "blk.%d.ffn_down_exps.bias"
	n.Sinks, n.OBias = "blk.%d.attn_sinks.weight", "blk.%d.attn_output.bias"
	n.SharedGate, n.SharedUp, n.SharedDown, n.SharedRouter = "", "", "", ""
	return &n
}()

func init() {
	model.Register(model.Family{
		Config:   []config.Family{gptoss},
		GGUFRope: model.RopeNeox,
		GGUF:     gguf,
		HF:       hf,
		Blocks: func(*config.Model) (model.Blocks, error) {
			return model.Blocks{Router: model.TopKSoftmax, Sinks: true, OBias: true, ExpertBias: true,
				SwiGLULimit: swigluLimit}, nil
		},
	})
}
