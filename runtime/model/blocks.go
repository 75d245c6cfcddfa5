package model

import (
	"fmt"

	"github.com/mlxrun/mlx/models/config"
)

// Blocks is how a family composes the shared blocks of a layer, beyond what
// the config says (activation, sliding windows, soft-caps, query scale and
// RoPE bases are read from it whatever the family).
type Blocks struct {
	// NormOffset marks (1+w) RMSNorm: the Hugging Face checkpoints store
	// every norm weight as w-1 (Gemma). GGUF converters store 1+w, so it
	// applies to Hugging Face weights only.
	NormOffset bool
	// QKVBias: the q, k and v projections always have biases (Qwen2);
	// the config's attention_bias turns them on for any family.
	QKVBias bool
	// QKNorm: queries and keys get a per-head RMSNorm before RoPE.
	QKNorm bool
	// PostNorms: the attention and MLP outputs are normalised before they
	// are added to the residual (Gemma's sandwich norms).
	PostNorms bool
	// EmbedScale: embeddings are multiplied by √hidden.
	EmbedScale bool
	// VNorm: values get a per-head RMSNorm without weight (Gemma 4).
	VNorm bool
	// NonCausal: attention sees the whole input, and a sliding window
	// reaches half its width on either side of a token (EmbeddingGemma);
	// the model embeds and has no logits, as an encoder.
	NonCausal bool
	// AttnScale, when set, multiplies the attention scores instead of
	// 1/√head_dim or query_pre_attn_scalar (Gemma 4: 1, its q/k norms
	// already set the scale).
	AttnScale float32
	// Router is how the sparse layers (config.Model.LayerSparse) weigh
	// their experts; NormTopK renormalises the weights of SoftmaxTopK.
	Router   Router
	NormTopK bool
	// MoEBeside: sparse layers keep their dense MLP and add the mixture's
	// output to it, each normalised (Gemma 4): the router reads the
	// residual normalised without weight and scaled, the experts read it
	// through a norm of their own.
	MoEBeside bool
	// SharedExpert: sparse layers also have an expert every token uses,
	// scaled by a sigmoid gate (Qwen2-MoE).
	SharedExpert bool
	// AttnGate: the query projection gives each head's queries and then
	// as many gate values, and the attention output is multiplied by
	// sigmoid(gate) (Qwen3.5's full-attention layers).
	AttnGate bool
	// Sinks: each attention head has a learned logit in its softmax
	// denominator (Names.Sinks).
	Sinks bool
	// OBias: the attention output projection has a bias.
	OBias bool
	// ExpertBias: the router and the experts' projections have biases.
	ExpertBias bool
	// SwiGLULimit, when set, makes the experts' activation the clamped
	// SwiGLU: gate clamped to at most the limit, up to ±limit, and
	// gate·σ(α·gate)·(up+1) with α = SwiGLUAlpha (gpt-oss).
	SwiGLULimit float32
	// AbsolutePos: positions are a learned embedding added to the
	// token's, and attention has no RoPE (BERT).
	AbsolutePos bool
}

// SwiGLUAlpha is the slope inside the sigmoid of the clamped SwiGLU.
const SwiGLUAlpha = 1.702

// Standard returns the blocks of the Llama layer: RMSNorm before attention
// and MLP, no extras. It refuses nothing.
func Standard(*config.Model) (Blocks, error) { return Blocks{}, nil }

// MLPKind is the activation of the gated MLP.
type MLPKind uint8

// The gated MLPs.
const (
	SwiGLU    MLPKind = iota // silu(gate) · up
	GeGLUTanh                // gelu_tanh(gate) · up
	GeGLU                    // gelu(gate) · up, erf GELU; BERT's ungated MLP is gelu(up)
)

// mlpKind maps a config's hidden activation to its gated MLP.
func mlpKind(act string) (MLPKind, error) {
	switch act {
	case "", "silu", "swish", "swiglu":
		return SwiGLU, nil
	case "gelu":
		return GeGLU, nil
	case "gelu_pytorch_tanh", "gelu_tanh":
		return GeGLUTanh, nil
	}
	return 0, fmt.Errorf("%w: activation %q (supported: silu, gelu_pytorch_tanh, gelu)", ErrUnsupported, act)
}
