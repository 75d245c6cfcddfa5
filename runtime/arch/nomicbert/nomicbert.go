// Package nomicbert registers NomicBERT (nomic-embed-text v1 and v1.5): a
// bidirectional encoder with RoPE instead of position embeddings, a fused
// qkv projection, a SwiGLU MLP, no biases but in its LayerNorms, which
// come after attention and after the MLP as in BERT.
package nomicbert

import (
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/arch/bert"
	"github.com/mlxrun/mlx/runtime/model"
)

// nomic is NomicBertConfig's defaults, with its GPT-2 style key names as
// aliases. The context is the trained one (max_trained_positions), as
// llama.cpp's converter sets it.
var nomic = config.Family{Arch: "nomic-bert", HF: []string{"NomicBertModel"}, ModelTypes: []string{"nomic_bert"},
	GGUF: []string{"nomic-bert"}, Vocab: 30528, Heads: 12, MaxPos: 2048, Eps: 1e-12, Theta: 1000, Act: "swiglu",
	BOS: -1, EOS: -1, Encoder: true, Aliases: [][2]string{
		{"n_embd", "hidden_size"}, {"n_layer", "num_hidden_layers"}, {"n_head", "num_attention_heads"},
		{"n_inner", "intermediate_size"}, {"max_trained_positions", "max_position_embeddings"},
		{"n_positions", "max_position_embeddings"}, {"rotary_emb_base", "rope_theta"},
		{"activation_function", "hidden_act"}}}

// gguf are BERT's names with the fused qkv and the gate of the SwiGLU.
var gguf = func() *model.Names {
	n := *bert.GGUF
	n.Gate = "blk.%d.ffn_gate.weight"
	return &n
}()

// hf are the names of nomic's NomicBertModel: fc11 is the up projection,
// fc12 the gate.
var hf = &model.Names{
	Embed: "embeddings.word_embeddings.weight", TypeEmbed: "embeddings.token_type_embeddings.weight",
	EmbedNorm: "emb_ln.weight", EmbedNormBias: "emb_ln.bias",
	QKV: "encoder.layers.%d.attn.Wqkv.weight", Q: "encoder.layers.%d.attn.Wqkv.weight",
	O:           "encoder.layers.%d.attn.out_proj.weight",
	AttnOutNorm: "encoder.layers.%d.norm1.weight", AttnOutNormBias: "encoder.layers.%d.norm1.bias",
	Up: "encoder.layers.%d.mlp.fc11.weight", Gate: "encoder.layers.%d.mlp.fc12.weight",
	Down:    "encoder.layers.%d.mlp.fc2.weight",
	OutNorm: "encoder.layers.%d.norm2.weight", OutNormBias: "encoder.layers.%d.norm2.bias",
}

func init() {
	model.Register(model.Family{Config: []config.Family{nomic}, GGUFRope: model.RopeNeox, GGUF: gguf, HF: hf,
		Blocks: model.Standard})
}
