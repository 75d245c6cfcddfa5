// Package config describes a model's architecture and hyper-parameters in one
// struct, Model, whether they come from a Hugging Face config.json (FromHFDir,
// FromHFJSON) or from a GGUF file's metadata (FromGGUF). It also reads the
// sampling defaults of generation_config.json (LoadGeneration).
//
// Every value read is checked (positive sizes, heads that divide evenly,
// bounds that keep the runtime's allocations sane); a bad config gives an
// error wrapping ErrInvalid or ErrUnsupported that says which key is wrong.
package config

import "errors"

// Errors returned (wrapped) by this package.
var (
	// ErrInvalid reports a missing, malformed or out-of-range value.
	ErrInvalid = errors.New("invalid model config")
	// ErrUnsupported reports a valid config this runtime cannot run, such as an
	// unknown architecture or quantization method.
	ErrUnsupported = errors.New("unsupported model config")
)

// Source tells where a Model description came from. It matters to the
// runtime because the two sources store Q/K projection rows differently:
// Hugging Face weights use the rotate-half RoPE layout, while llama.cpp's
// converter permutes llama Q/K rows into the interleaved layout.
type Source int

// The sources of a Model.
const (
	SourceHF   Source = iota + 1 // a Hugging Face (or MLX) config.json
	SourceGGUF                   // GGUF metadata
)

// String returns "hf" or "gguf".
func (s Source) String() string {
	switch s {
	case SourceHF:
		return "hf"
	case SourceGGUF:
		return "gguf"
	}
	return "unknown"
}

// Model is everything the runtime needs to build a model of any supported
// architecture. Sizes are in elements; unset optional values are zero.
type Model struct {
	Source       Source
	Arch         string // normalised family name, as registered (Family.Arch): llama (also Mistral), qwen3, ...
	Architecture string // as written: "MistralForCausalLM", or GGUF general.architecture
	Name         string // GGUF general.name; empty for Hugging Face

	VocabSize     int
	HiddenSize    int
	Layers        int
	Heads         int
	KVHeads       int
	HeadDim       int // explicit, else HiddenSize/Heads
	FFNSize       int // intermediate size of the MLP
	ContextLength int // max_position_embeddings / context_length

	RMSNormEps     float32
	HiddenAct      string  // "silu" or "gelu_pytorch_tanh"
	RopeTheta      float32 // base of the rotary frequencies (global layers for gemma3)
	RopeLocalTheta float32 // gemma3: base for the sliding-window layers
	RopeDim        int     // dimensions rotated per head (HeadDim unless partial)
	RopeScaling    RopeScaling

	TieEmbeddings bool // no separate output matrix: the embedding is reused
	AttentionBias bool // q/k/v projections have biases (qwen2)

	SlidingWindow  int // tokens seen by sliding-window layers; 0 = none
	SlidingPattern int // every SlidingPattern-th layer is global; 0 = all layers slide when SlidingWindow > 0

	AttnSoftcap        float32 // gemma2: tanh cap on attention scores; 0 = none
	FinalSoftcap       float32 // gemma2: tanh cap on output logits; 0 = none
	QueryPreAttnScalar float32 // gemma: scores are scaled by 1/sqrt(this); 0 = 1/sqrt(HeadDim)

	// Gemma 4: the full-attention layers' heads, the layers that reuse
	// another layer's keys and values, and the per-layer inputs.
	GlobalHeadDim    int  // head size of full-attention layers; 0 = HeadDim
	GlobalKVHeads    int  // KV heads of full-attention layers; 0 = KVHeads
	GlobalRopeDim    int  // rotated dimensions of full-attention layers; 0 = RopeDim
	RopeProportional bool // full-attention RoPE frequencies span the whole head, pairing i with i+head/2
	KEqV             bool // full-attention layers use their keys as values (attention_k_eq_v)
	KVSharedLayers   int  // the last KVSharedLayers layers reuse the cache of an earlier layer of their type
	DoubleWideMLP    bool // the KV-shared layers' MLPs are twice FFNSize wide (use_double_wide_mlp)
	PerLayerInput    int  // hidden_size_per_layer_input; 0 = none
	PerLayerVocab    int  // vocab_size_per_layer_input

	MoE MoE // the mixture-of-experts MLP; zero for a dense model
	// DeltaNet is the shape of the Gated DeltaNet linear-attention layers
	// of a hybrid model, nil for a model without.
	DeltaNet *DeltaNet

	BOS int   // beginning-of-sequence token id, -1 if none
	EOS []int // end-of-sequence token ids

	Quantization *Quantization // MLX affine quantization, nil if the weights are not quantized so
	TorchDtype   string        // Hugging Face torch_dtype ("bfloat16", ...); empty for GGUF
	FileType     int           // GGUF general.file_type (llama_ftype), -1 if absent or Hugging Face

	// Pooling is how the model's embeddings pool its tokens (PoolMean,
	// ...), from GGUF pooling_type or sentence-transformers'
	// 1_Pooling/config.json; "" when the files say nothing.
	Pooling string
	// DenseSize is the width between the two projections that follow
	// pooling in sentence-transformers' Dense modules (EmbeddingGemma's
	// 2_Dense and 3_Dense, GGUF dense_2_feat_out); 0 without them.
	DenseSize int

	// Encoder marks a bidirectional encoder: attention sees the whole
	// input, norms are LayerNorms (RMSNormEps holds their epsilon), and
	// there is no output layer. TypeVocab is the number of token types
	// (rows of the token-type embedding, 0 for none), PosOffset the first
	// row of the position embedding, Labels the outputs of a
	// classification head (0 for none).
	Encoder   bool
	TypeVocab int
	PosOffset int
	Labels    int
}

// RopeScaling describes how rotary frequencies are stretched for long
// contexts. Type is "" (none), "linear", "llama3", "yarn" or "longrope".
type RopeScaling struct {
	Type            string
	Factor          float32
	OriginalContext int // original_max_position_embeddings / original_context_length

	LowFreqFactor, HighFreqFactor float32 // llama3
	BetaFast, BetaSlow            float32 // yarn
	AttnFactor                    float32 // yarn, longrope: attention scale; 0 = derived from Factor
	// NoTruncate (yarn): the correction range between BetaFast and
	// BetaSlow keeps its fractional ends instead of being widened to whole
	// dimensions (transformers' truncate: false, gpt-oss).
	NoTruncate bool

	ShortFactor, LongFactor []float32 // longrope: per-pair divisors, RopeDim/2 each

	// Freqs, when set, holds a divisor for each rotary frequency pair
	// (RopeDim/2 values). A GGUF llama3 model carries its scaling only this
	// way (the rope_freqs tensor; Factor and the other parameters stay zero);
	// for Hugging Face llama3 scaling it is computed from the parameters, so
	// both sources give the runtime the same numbers.
	Freqs []float32
}

// Quantization is the MLX affine quantization of a model's weights: groups of
// GroupSize values share a scale and a bias, each value stored in Bits bits.
type Quantization struct {
	GroupSize int
	Bits      int
	Mode      string // "affine" unless the config says otherwise
}

// LayerShape returns the head size, KV heads and rotated dimensions of
// layer i: the full-attention layers' own when the config gives them.
func (m *Model) LayerShape(i int) (headDim, kvHeads, ropeDim int) {
	headDim, kvHeads, ropeDim = m.HeadDim, m.KVHeads, m.RopeDim
	if m.LayerSliding(i) {
		return headDim, kvHeads, ropeDim
	}
	if m.GlobalHeadDim > 0 {
		headDim = m.GlobalHeadDim
	}
	if m.GlobalKVHeads > 0 {
		kvHeads = m.GlobalKVHeads
	}
	if m.GlobalRopeDim > 0 {
		ropeDim = m.GlobalRopeDim
	}
	return headDim, kvHeads, ropeDim
}

// LayerFFN returns the intermediate size of layer i's MLP.
func (m *Model) LayerFFN(i int) int {
	if m.DoubleWideMLP && m.KVSharedLayers > 0 && i >= m.Layers-m.KVSharedLayers {
		return 2 * m.FFNSize
	}
	return m.FFNSize
}

// LayerSliding reports whether layer i (from 0) uses sliding-window attention.
func (m *Model) LayerSliding(i int) bool {
	if m.SlidingWindow <= 0 {
		return false
	}
	if m.SlidingPattern <= 0 {
		return true
	}
	return (i+1)%m.SlidingPattern != 0
}
