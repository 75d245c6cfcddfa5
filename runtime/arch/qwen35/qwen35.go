// Package qwen35 registers the Qwen3.5 dense family (Qwen3_5ForCausalLM,
// qwen3_5_text, and the text model of the published multimodal
// checkpoints, Qwen3_5ForConditionalGeneration): a hybrid of Gated DeltaNet linear-attention layers and,
// every full_attention_interval-th layer, gated full attention (an output
// gate from the query projection, q/k norms, partial RoPE), with (1+w)
// RMSNorm weights. The multimodal RoPE sections collapse to plain
// positions for text, which is all this runtime feeds it.
package qwen35

import (
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/model"
)

// qwen35 is Qwen3_5TextConfig's defaults.
var qwen35 = config.Family{Arch: "qwen35", HF: []string{"Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration"},
	ModelTypes: []string{"qwen3_5_text", "qwen3_5"},
	GGUF:       []string{"qwen35"}, Vocab: 248320, Heads: 16, KVHeads: 4, HeadDim: 256, MaxPos: 262144, Eps: 1e-6, Theta: 1e7,
	Act: "silu", BOS: -1, EOS: -1,
	DeltaNet: &config.DeltaNet{KeyHeads: 16, KeyDim: 128, ValueHeads: 32, ValueDim: 128, ConvKernel: 4, Interval: 4}}

// hf and gguf hold the Llama names with those of the linear-attention
// layers, gguf as llama.cpp names them.
var hf, gguf = linearHF(model.HFNames), linearGGUF(model.GGUFNames)

// linearHF returns base's names with transformers' names of the
// linear-attention layers.
func linearHF(base *model.Names) *model.Names {
	n := *base
	p := "model.layers.%d.linear_attn."
	n.LinQKV, n.LinZ, n.LinBeta, n.LinAlpha = p+"in_proj_qkv.weight", p+"in_proj_z.weight", p+"in_proj_b.weight", p+"in_proj_a.weight"
	n.LinConv, n.LinDtBias, n.LinDecay = p+"conv1d.weight", p+"dt_bias", p+"A_log"
	n.LinNorm, n.LinOut = p+"norm.weight", p+"out_proj.weight"
	return &n
}

// linearGGUF returns base's names with llama.cpp's names of the
// linear-attention layers and of the norm before the MLP.
func linearGGUF(base *model.Names) *model.Names {
	n := *base
	n.FFNNorm = "blk.%d.post_attention_norm.weight"
	n.LinQKV, n.LinZ, n.LinBeta, n.LinAlpha = "blk.%d.attn_qkv.weight", "blk.%d.attn_gate.weight", "blk.%d.ssm_beta.weight", "blk.%d.ssm_alpha.weight"
	n.LinConv, n.LinDtBias, n.LinDecay = "blk.%d.ssm_conv1d.weight", "blk.%d.ssm_dt.bias", "blk.%d.ssm_a"
	n.LinNorm, n.LinOut = "blk.%d.ssm_norm.weight", "blk.%d.ssm_out.weight"
	return &n
}

func init() {
	model.Register(model.Family{
		Config:         []config.Family{qwen35},
		GGUFRope:       model.RopeNeox,
		GGUFTiledHeads: true,
		GGUF:           gguf,
		HF:             hf,
		Blocks: func(*config.Model) (model.Blocks, error) {
			return model.Blocks{NormOffset: true, QKNorm: true, AttnGate: true}, nil
		},
	})
}
