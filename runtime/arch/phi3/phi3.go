// Package phi3 registers the Phi-3 family (Phi-3, Phi-3.5 and Phi-4-mini):
// the Llama layer with fused qkv_proj and gate_up_proj matrices, partial
// rotary embeddings (partial_rotary_factor) and LongRoPE scaling.
package phi3

import (
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/model"
)

// phi3 is Phi3Config's defaults.
var phi3 = config.Family{Arch: "phi3", HF: []string{"Phi3ForCausalLM"}, ModelTypes: []string{"phi3"},
	GGUF: []string{"phi3"}, Vocab: 32064, Heads: 32, MaxPos: 4096, Eps: 1e-5, Theta: 10000, Act: "silu",
	BOS: 1, EOS: 32000, Sliding: config.KeySliding}

// hf and gguf are the fused projections' names. llama.cpp's converter
// keeps gate and up fused in ffn_up (gate rows first, as gate_up_proj);
// some GGUF files split q, k and v, which the binder then reads.
var hf, gguf = fused(model.HFNames, "model.layers.%d.self_attn.qkv_proj.weight", "model.layers.%d.mlp.gate_up_proj.weight"),
	fused(model.GGUFNames, "blk.%d.attn_qkv.weight", "blk.%d.ffn_up.weight")

func init() {
	model.Register(model.Family{
		Config:   []config.Family{phi3},
		GGUFRope: model.RopeNeox,
		GGUF:     gguf,
		HF:       hf,
		Blocks:   model.Standard,
	})
}

// fused returns base's names with the fused projections.
func fused(base *model.Names, qkv, gateUp string) *model.Names {
	n := *base
	n.QKV, n.GateUp, n.Gate, n.Up = qkv, gateUp, "", ""
	return &n
}
