// Package gemma3 registers the Gemma 3 family (text models, and the text
// part of Gemma3ForConditionalGeneration configs): sandwich (1+w) RMSNorms
// around attention and the tanh-GeGLU MLP, q/k norms, embeddings scaled by
// √hidden, sliding-window layers with their own RoPE base and a global
// layer every sixth unless layer_types says otherwise; and EmbeddingGemma,
// its bidirectional embedding model (GGUF files only).
package gemma3

import (
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/model"
)

// gemma3 is Gemma3TextConfig's defaults. A GGUF file carries no layer
// pattern: llama.cpp makes every sixth layer global, and so does Pattern.
var gemma3 = config.Family{Arch: "gemma3", HF: []string{"Gemma3ForCausalLM", "Gemma3ForConditionalGeneration"},
	ModelTypes: []string{"gemma3", "gemma3_text"}, GGUF: []string{"gemma3"},
	Vocab: 262208, Heads: 8, KVHeads: 4, HeadDim: 256, MaxPos: 131072, Eps: 1e-6, Theta: 1e6, LocalTheta: 10000,
	Tie: true, Act: "gelu_pytorch_tanh", BOS: 2, EOS: 1, Sliding: config.KeySliding, Window: 4096, Pattern: 6,
	QueryPreAttn: 256, WideQueryLayers: 62}

// HF and GGUF are the family's tensor names: Llama's, plus q/k norms and
// the norms after attention and after the MLP. In Gemma checkpoints
// post_attention_layernorm is the norm after attention, not the one
// before the MLP.
var (
	HF = withNorms(model.HFNames, "model.layers.%d.post_attention_layernorm.weight",
		"model.layers.%d.pre_feedforward_layernorm.weight", "model.layers.%d.post_feedforward_layernorm.weight")
	GGUF = withNorms(model.GGUFNames, "blk.%d.post_attention_norm.weight",
		model.GGUFNames.FFNNorm, "blk.%d.post_ffw_norm.weight")
)

// embedding is EmbeddingGemma, llama.cpp's gemma-embedding: the Gemma 3
// trunk with bidirectional attention, whose sliding window is symmetric,
// its embeddings pooled as the file says and then projected by the
// sentence-transformers Dense modules (dense_2, dense_3) when the file has
// them. It is read from GGUF files only.
var embedding = config.Family{Arch: "gemma-embedding", GGUF: []string{"gemma-embedding"},
	Vocab: 262144, Heads: 3, KVHeads: 1, HeadDim: 256, MaxPos: 2048, Eps: 1e-6, Theta: 1e6, LocalTheta: 10000,
	Tie: true, Act: "gelu_pytorch_tanh", BOS: 2, EOS: 1, Sliding: config.KeySliding, Window: 512, Pattern: 6}

// embeddingGGUF adds the Dense modules' names to the Gemma 3 names.
var embeddingGGUF = func() *model.Names {
	n := *GGUF
	n.Dense1, n.Dense2 = "dense_2.weight", "dense_3.weight"
	return &n
}()

func init() {
	blocks := model.Blocks{NormOffset: true, QKNorm: true, PostNorms: true, EmbedScale: true}
	model.Register(model.Family{
		Config:   []config.Family{gemma3},
		GGUFRope: model.RopeNeox,
		GGUF:     GGUF,
		HF:       HF,
		Blocks:   func(*config.Model) (model.Blocks, error) { return blocks, nil },
	})
	bidi := blocks
	bidi.NonCausal = true
	model.Register(model.Family{
		Config:   []config.Family{embedding},
		GGUFRope: model.RopeNeox,
		GGUF:     embeddingGGUF,
		HF:       HF,
		Blocks:   func(*config.Model) (model.Blocks, error) { return bidi, nil },
	})
}

// withNorms returns base's names with the sandwich norms.
func withNorms(base *model.Names, postAttn, preFFN, postFFN string) *model.Names {
	n := *base
	n.PostAttnNorm, n.FFNNorm, n.PostFFNNorm = postAttn, preFFN, postFFN
	return &n
}
