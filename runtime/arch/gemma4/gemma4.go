// Package gemma4 registers the Gemma 4 text family (Gemma4ForCausalLM,
// gemma4_text): Gemma 3's sandwich norms and tanh-GeGLU MLP with plain
// RMSNorm weights, q/k norms that set the attention scale (scores are not
// scaled), values normalised without weight, full-attention layers with
// heads of their own size and proportional partial RoPE, per-layer input
// embeddings, layers that reuse an earlier layer's keys and values, and
// keys used as values (attention_k_eq_v).
package gemma4

import (
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/arch/gemma3"
	"github.com/mlxrun/mlx/runtime/model"
)

// gemma4 is Gemma4TextConfig's defaults; a Gemma4ForConditionalGeneration
// config is read from its text_config.
var gemma4 = config.Family{Arch: "gemma4", HF: []string{"Gemma4ForCausalLM", "Gemma4ForConditionalGeneration"},
	ModelTypes: []string{"gemma4_text", "gemma4"}, GGUF: []string{"gemma4"},
	Vocab: 262144, Heads: 8, KVHeads: 4, HeadDim: 256, MaxPos: 131072, Eps: 1e-6, Theta: 1e6, LocalTheta: 10000,
	Tie: true, Act: "gelu_pytorch_tanh", BOS: 2, EOS: 1, Sliding: config.KeySliding, Window: 512, Pattern: 6,
	GlobalHeadDim: 512, PerLayerInput: 256, PerLayerVocab: 262144, OptionalMoE: true}

// hf and gguf hold Gemma 3's names and the per-layer input tensors.
var hf, gguf = perLayer(gemma3.HF, "model.embed_tokens_per_layer.weight", "model.per_layer_model_projection.weight",
	"model.per_layer_projection_norm.weight", "model.layers.%d.per_layer_input_gate.weight",
	"model.layers.%d.per_layer_projection.weight", "model.layers.%d.post_per_layer_input_norm.weight",
	"model.layers.%d.layer_scalar"),
	perLayer(gemma3.GGUF, "per_layer_token_embd.weight", "per_layer_model_proj.weight", "per_layer_proj_norm.weight",
		"blk.%d.inp_gate.weight", "blk.%d.proj.weight", "blk.%d.post_norm.weight", "blk.%d.layer_output_scale.weight")

func init() {
	hf.Router, hf.RouterScale, hf.ExpertScale = "model.layers.%d.router.proj.weight", "model.layers.%d.router.scale",
		"model.layers.%d.router.per_expert_scale"
	hf.ExpGateUp, hf.ExpDown = "model.layers.%d.experts.gate_up_proj", "model.layers.%d.experts.down_proj"
	hf.PostFFNNorm1, hf.PreFFNNorm2, hf.PostFFNNorm2 = "model.layers.%d.post_feedforward_layernorm_1.weight",
		"model.layers.%d.pre_feedforward_layernorm_2.weight", "model.layers.%d.post_feedforward_layernorm_2.weight"
	// llama.cpp keeps the experts' gate and up rows fused, or writes them
	// apart (ffn_gate_exps, ffn_up_exps), and the per-expert scale as the
	// scale of ffn_down_exps.
	gguf.Router, gguf.RouterScale, gguf.ExpertScale = "blk.%d.ffn_gate_inp.weight", "blk.%d.ffn_gate_inp.scale",
		"blk.%d.ffn_down_exps.scale"
	gguf.ExpGateUp, gguf.ExpGate, gguf.ExpUp = "blk.%d.ffn_gate_up_exps.weight", "blk.%d.ffn_gate_exps.weight",
		"blk.%d.ffn_up_exps.weight"
	gguf.ExpDown = "blk.%d.ffn_down_exps.weight"
	gguf.PostFFNNorm1, gguf.PreFFNNorm2, gguf.PostFFNNorm2 = "blk.%d.post_ffw_norm_1.weight", "blk.%d.pre_ffw_norm_2.weight",
		"blk.%d.post_ffw_norm_2.weight"
}

// perLayer returns base's names with the per-layer input tensors.
func perLayer(base *model.Names, embed, proj, norm, gate, back, post, scalar string) *model.Names {
	n := *base
	n.PLEmbed, n.PLModelProj, n.PLProjNorm = embed, proj, norm
	n.PLGate, n.PLProj, n.PLPostNorm, n.LayerScalar = gate, back, post, scalar
	return &n
}

func init() {
	model.Register(model.Family{
		Config:   []config.Family{gemma4},
		GGUFRope: model.RopeNeox,
		GGUF:     gguf,
		HF:       hf,
		Blocks:   blocks,
	})
}

// blocks returns the family's blocks: with enable_moe_block (26B-A4B),
// every layer's mixture runs beside its dense MLP. Bidirectional
// attention is refused when parsing the config.
func blocks(cfg *config.Model) (model.Blocks, error) {
	return model.Blocks{QKNorm: true, VNorm: true, PostNorms: true, EmbedScale: true, AttnScale: 1,
		MoEBeside: cfg.MoE.Experts > 0, Router: model.SoftmaxTopK, NormTopK: true}, nil
}
