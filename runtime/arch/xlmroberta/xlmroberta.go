// Package xlmroberta registers XLM-RoBERTa (bge-m3, bge-reranker-v2-m3):
// BERT's layers, whose Hugging Face position embeddings start at
// pad_token_id+1 as RoBERTa numbers positions. llama.cpp converts it to
// a "bert" GGUF file without those rows, which the bert family reads.
package xlmroberta

import (
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/arch/bert"
	"github.com/mlxrun/mlx/runtime/model"
)

// xlmr is XLMRobertaConfig's defaults.
var xlmr = config.Family{Arch: "xlm-roberta", HF: []string{"XLMRobertaModel", "XLMRobertaForSequenceClassification"},
	ModelTypes: []string{"xlm-roberta"}, Vocab: 250002, Heads: 12, MaxPos: 514, Eps: 1e-5, Theta: 10000,
	Act: "gelu", BOS: 0, EOS: 2, Encoder: true, PosOffset: true}

// hf are BERT's names with RoBERTa's classification head: a dense layer
// (tanh after it) and the output projection.
var hf = func() *model.Names {
	n := *bert.HF
	n.Cls, n.ClsBias = "classifier.dense.weight", "classifier.dense.bias"
	n.ClsOut, n.ClsOutBias = "classifier.out_proj.weight", "classifier.out_proj.bias"
	return &n
}()

func init() {
	model.Register(model.Family{Config: []config.Family{xlmr}, GGUF: bert.GGUF, HF: hf, Blocks: bert.Blocks})
}
