package model

import (
	"fmt"
	"reflect"
	"strings"
)

// Names are the tensor names of a model. Layer names hold one %d, the layer
// index. An empty name is a tensor the format does not have.
type Names struct {
	Embed, OutputNorm, Output string

	AttnNorm, Q, K, V, O string
	QBias, KBias, VBias  string
	QNorm, KNorm         string
	FFNNorm              string
	Gate, Up, Down       string

	PostAttnNorm, PostFFNNorm string // sandwich norms

	// QKV and GateUp are fused projections: q, k and v rows in one matrix
	// (used when the file has it, else Q, K and V), gate then up rows in
	// one matrix (used whenever named).
	QKV, GateUp string

	// Per-layer inputs (Gemma 4): the second embedding, the projection of
	// the embedding and its norm; per layer, the gate, the projection
	// back, its norm, and the scalar of the layer's output.
	PLEmbed, PLModelProj, PLProjNorm string
	PLGate, PLProj, PLPostNorm       string
	LayerScalar                      string

	// Mixture of experts: the router; the experts' matrices, stacked in
	// one tensor per layer (one %d) or one tensor per expert (two: the
	// layer, then the expert), and stacked ones used instead when the file
	// has them (MLX's switch_mlp); the shared expert and its gate.
	Router                           string
	ExpGate, ExpUp, ExpDown          string
	StackedGate, StackedUp           string
	StackedDown                      string
	SharedGate, SharedUp, SharedDown string
	SharedRouter                     string
	// Gemma 4's mixture beside the dense MLP: the experts' gate and up
	// rows stacked in one tensor per layer, the router's input scale and
	// per-expert scale, and the norms around the two MLPs.
	ExpGateUp, RouterScale, ExpertScale     string
	PostFFNNorm1, PreFFNNorm2, PostFFNNorm2 string

	// Attention sinks (one logit per head) and the output projection's
	// bias; the router's bias and the stacked experts' biases ([experts,
	// ff] or [experts, hidden]); ExpGateUpBias holds gate and up biases
	// interleaved, value by value.
	Sinks, OBias, RouterBias            string
	ExpGateBias, ExpUpBias, ExpDownBias string
	ExpGateUpBias                       string
	// Experts stored transposed, [experts, in, out], as x·W multiplies
	// them, gate and up interleaved column by column in ExpGateUpT; or,
	// when the file has NAME_blocks and NAME_scales, as MXFP4 blocks with
	// one row per output (gpt-oss checkpoints).
	ExpGateUpT, ExpDownT string

	// Gated DeltaNet layers (see DeltaNet): the q/k/v projection, the
	// output gate z, beta and alpha, the convolution, the dt bias, the
	// decay rate (A_log in Hugging Face checkpoints, -exp(A_log) in GGUF
	// files), the gated norm and the output projection.
	LinQKV, LinZ, LinBeta, LinAlpha, LinConv string
	LinDtBias, LinDecay, LinNorm, LinOut     string

	// Encoders (see Encoder): the position and token-type embeddings and
	// the LayerNorm of the embeddings; per layer, the LayerNorms after
	// attention and after the MLP and the MLP's biases. Then the
	// classification head's dense layer and output (see Head), of
	// encoders and of decoders.
	PosEmbed, TypeEmbed, EmbedNorm, EmbedNormBias string
	AttnOutNorm, AttnOutNormBias                  string
	OutNorm, OutNormBias, UpBias, DownBias        string
	Cls, ClsBias, ClsOut, ClsOutBias              string

	// Dense1 and Dense2 are the projections after pooling
	// (config.Model.DenseSize), "" for families without them.
	Dense1, Dense2 string
}

// GGUFNames are the names llama.cpp gives the tensors of the Llama family
// (and of Qwen2 and Qwen3).
var GGUFNames = &Names{
	Embed: "token_embd.weight", OutputNorm: "output_norm.weight", Output: "output.weight",
	AttnNorm: "blk.%d.attn_norm.weight",
	Q:        "blk.%d.attn_q.weight", K: "blk.%d.attn_k.weight", V: "blk.%d.attn_v.weight", O: "blk.%d.attn_output.weight",
	QBias: "blk.%d.attn_q.bias", KBias: "blk.%d.attn_k.bias", VBias: "blk.%d.attn_v.bias",
	QNorm: "blk.%d.attn_q_norm.weight", KNorm: "blk.%d.attn_k_norm.weight",
	FFNNorm: "blk.%d.ffn_norm.weight",
	Gate:    "blk.%d.ffn_gate.weight", Up: "blk.%d.ffn_up.weight", Down: "blk.%d.ffn_down.weight",
	ClsOut: "cls.output.weight", ClsOutBias: "cls.output.bias",
}

// HFNames are the names of Hugging Face transformers checkpoints of the
// Llama family (and of Qwen2 and Qwen3), which MLX checkpoints keep.
var HFNames = &Names{
	Embed: "model.embed_tokens.weight", OutputNorm: "model.norm.weight", Output: "lm_head.weight",
	AttnNorm: "model.layers.%d.input_layernorm.weight",
	Q:        "model.layers.%d.self_attn.q_proj.weight", K: "model.layers.%d.self_attn.k_proj.weight",
	V: "model.layers.%d.self_attn.v_proj.weight", O: "model.layers.%d.self_attn.o_proj.weight",
	QBias: "model.layers.%d.self_attn.q_proj.bias", KBias: "model.layers.%d.self_attn.k_proj.bias",
	VBias: "model.layers.%d.self_attn.v_proj.bias",
	QNorm: "model.layers.%d.self_attn.q_norm.weight", KNorm: "model.layers.%d.self_attn.k_norm.weight",
	FFNNorm: "model.layers.%d.post_attention_layernorm.weight",
	Gate:    "model.layers.%d.mlp.gate_proj.weight", Up: "model.layers.%d.mlp.up_proj.weight",
	Down: "model.layers.%d.mlp.down_proj.weight",
}

// GGUFMoENames are GGUFNames with llama.cpp's names of the router, the
// stacked experts and the shared expert.
var GGUFMoENames = withMoE(GGUFNames, Names{Router: "blk.%d.ffn_gate_inp.weight",
	ExpGate: "blk.%d.ffn_gate_exps.weight", ExpUp: "blk.%d.ffn_up_exps.weight", ExpDown: "blk.%d.ffn_down_exps.weight",
	SharedGate: "blk.%d.ffn_gate_shexp.weight", SharedUp: "blk.%d.ffn_up_shexp.weight",
	SharedDown: "blk.%d.ffn_down_shexp.weight", SharedRouter: "blk.%d.ffn_gate_inp_shexp.weight"})

// HFMoENames are HFNames with the names of transformers' sparse MLPs
// (Qwen2-MoE, Qwen3-MoE): one tensor per expert, or stacked in MLX
// checkpoints.
var HFMoENames = withMoE(HFNames, Names{Router: "model.layers.%d.mlp.gate.weight",
	ExpGate: "model.layers.%d.mlp.experts.%d.gate_proj.weight", ExpUp: "model.layers.%d.mlp.experts.%d.up_proj.weight",
	ExpDown:     "model.layers.%d.mlp.experts.%d.down_proj.weight",
	StackedGate: "model.layers.%d.mlp.switch_mlp.gate_proj.weight", StackedUp: "model.layers.%d.mlp.switch_mlp.up_proj.weight",
	StackedDown: "model.layers.%d.mlp.switch_mlp.down_proj.weight",
	SharedGate:  "model.layers.%d.mlp.shared_expert.gate_proj.weight", SharedUp: "model.layers.%d.mlp.shared_expert.up_proj.weight",
	SharedDown: "model.layers.%d.mlp.shared_expert.down_proj.weight", SharedRouter: "model.layers.%d.mlp.shared_expert_gate.weight"})

// withMoE returns base's names with the mixture's names of moe.
func withMoE(base *Names, moe Names) *Names {
	n := *base
	n.Router, n.ExpGate, n.ExpUp, n.ExpDown = moe.Router, moe.ExpGate, moe.ExpUp, moe.ExpDown
	n.StackedGate, n.StackedUp, n.StackedDown = moe.StackedGate, moe.StackedUp, moe.StackedDown
	n.SharedGate, n.SharedUp, n.SharedDown, n.SharedRouter = moe.SharedGate, moe.SharedUp, moe.SharedDown, moe.SharedRouter
	return &n
}

// layer returns the name of a per-layer tensor.
func layer(format string, i int) string { return fmt.Sprintf(format, i) }

// textModel returns the names of n as a multimodal checkpoint holds its
// text model, when src holds it so: under model.language_model.
// (transformers 5) or language_model.model. (transformers 4), the output
// under lm_head or language_model.lm_head. Otherwise n itself.
func textModel(n *Names, src Source) *Names {
	if src.Has(n.Embed) {
		return n
	}
	for _, prefix := range []string{"model.language_model.", "language_model.model."} {
		if !src.Has(prefix + strings.TrimPrefix(n.Embed, "model.")) {
			continue
		}
		out := *n
		v := reflect.ValueOf(&out).Elem()
		for i := range v.NumField() {
			f := v.Field(i)
			if s := f.String(); strings.HasPrefix(s, "model.") {
				f.SetString(prefix + strings.TrimPrefix(s, "model."))
			}
		}
		if prefix == "language_model.model." && src.Has("language_model."+n.Output) {
			out.Output = "language_model." + n.Output
		}
		return &out
	}
	return n
}
