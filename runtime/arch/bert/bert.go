// Package bert registers BERT (all-MiniLM, bge, mxbai-embed-large, and the
// bge rerankers' BertForSequenceClassification): a bidirectional encoder
// with learned position and token-type embeddings, LayerNorms after
// attention and after the MLP, biases everywhere and an erf-GELU MLP.
package bert

import (
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/model"
)

// bert is BertConfig's defaults.
var bert = config.Family{Arch: "bert", HF: []string{"BertModel", "BertForSequenceClassification", "BertForMaskedLM"},
	ModelTypes: []string{"bert"}, GGUF: []string{"bert"}, Vocab: 30522, Heads: 12, MaxPos: 512, Eps: 1e-12,
	Theta: 10000, Act: "gelu", BOS: -1, EOS: -1, Encoder: true}

// GGUF are llama.cpp's names of BERT tensors, which XLM-RoBERTa files share.
var GGUF = &model.Names{
	Embed: "token_embd.weight", PosEmbed: "position_embd.weight", TypeEmbed: "token_types.weight",
	EmbedNorm: "token_embd_norm.weight", EmbedNormBias: "token_embd_norm.bias",
	Q: "blk.%d.attn_q.weight", K: "blk.%d.attn_k.weight", V: "blk.%d.attn_v.weight", QKV: "blk.%d.attn_qkv.weight",
	QBias: "blk.%d.attn_q.bias", KBias: "blk.%d.attn_k.bias", VBias: "blk.%d.attn_v.bias",
	O: "blk.%d.attn_output.weight", OBias: "blk.%d.attn_output.bias",
	AttnOutNorm: "blk.%d.attn_output_norm.weight", AttnOutNormBias: "blk.%d.attn_output_norm.bias",
	Gate: "", Up: "blk.%d.ffn_up.weight", UpBias: "blk.%d.ffn_up.bias",
	Down: "blk.%d.ffn_down.weight", DownBias: "blk.%d.ffn_down.bias",
	OutNorm: "blk.%d.layer_output_norm.weight", OutNormBias: "blk.%d.layer_output_norm.bias",
	Cls: "cls.weight", ClsBias: "cls.bias", ClsOut: "cls.output.weight", ClsOutBias: "cls.output.bias",
}

// HF are the names of transformers' BertModel; a task model holds them
// under bert., with the pooler as its head's dense layer.
var HF = &model.Names{
	Embed: "embeddings.word_embeddings.weight", PosEmbed: "embeddings.position_embeddings.weight",
	TypeEmbed: "embeddings.token_type_embeddings.weight",
	EmbedNorm: "embeddings.LayerNorm.weight", EmbedNormBias: "embeddings.LayerNorm.bias",
	Q: "encoder.layer.%d.attention.self.query.weight", K: "encoder.layer.%d.attention.self.key.weight",
	V: "encoder.layer.%d.attention.self.value.weight", QBias: "encoder.layer.%d.attention.self.query.bias",
	KBias: "encoder.layer.%d.attention.self.key.bias", VBias: "encoder.layer.%d.attention.self.value.bias",
	O: "encoder.layer.%d.attention.output.dense.weight", OBias: "encoder.layer.%d.attention.output.dense.bias",
	AttnOutNorm:     "encoder.layer.%d.attention.output.LayerNorm.weight",
	AttnOutNormBias: "encoder.layer.%d.attention.output.LayerNorm.bias",
	Up:              "encoder.layer.%d.intermediate.dense.weight", UpBias: "encoder.layer.%d.intermediate.dense.bias",
	Down: "encoder.layer.%d.output.dense.weight", DownBias: "encoder.layer.%d.output.dense.bias",
	OutNorm: "encoder.layer.%d.output.LayerNorm.weight", OutNormBias: "encoder.layer.%d.output.LayerNorm.bias",
	Cls: "bert.pooler.dense.weight", ClsBias: "bert.pooler.dense.bias", ClsOut: "classifier.weight", ClsOutBias: "classifier.bias",
}

// Blocks are BERT's: learned absolute positions instead of RoPE.
func Blocks(*config.Model) (model.Blocks, error) { return model.Blocks{AbsolutePos: true}, nil }

func init() {
	model.Register(model.Family{Config: []config.Family{bert}, GGUF: GGUF, HF: HF, Blocks: Blocks})
}
