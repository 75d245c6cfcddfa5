// Package gemma2 registers the Gemma 2 family: Gemma 3's layer without q/k
// norms, with attention logits soft-capped at 50 and output logits at 30,
// and sliding-window layers alternating with global ones.
package gemma2

import (
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/arch/gemma3"
	"github.com/mlxrun/mlx/runtime/model"
)

// gemma2 is Gemma2Config's defaults.
var gemma2 = config.Family{Arch: "gemma2", HF: []string{"Gemma2ForCausalLM"}, ModelTypes: []string{"gemma2"},
	GGUF: []string{"gemma2"}, Vocab: 256000, Heads: 8, KVHeads: 4, HeadDim: 256, MaxPos: 8192, Eps: 1e-6,
	Theta: 10000, Tie: true, Act: "gelu_pytorch_tanh", BOS: 2, EOS: 1, Sliding: config.KeySliding, Window: 4096,
	Pattern: 2, AttnCap: 50, FinalCap: 30, QueryPreAttn: 256, WideQueryLayers: 46}

func init() {
	model.Register(model.Family{
		Config:   []config.Family{gemma2},
		GGUFRope: model.RopeNeox,
		GGUF:     gemma3.GGUF,
		HF:       gemma3.HF,
		Blocks: func(*config.Model) (model.Blocks, error) {
			return model.Blocks{NormOffset: true, PostNorms: true, EmbedScale: true}, nil
		},
	})
}
