package info

import "github.com/mlxrun/mlx/models/config"

// The runtime registers the architecture families (runtime/arch/*), which a
// models package cannot import; the fixtures these tests load are Llama,
// Qwen2 and Qwen3 models whose configs give every value, so families with
// their names are enough to parse them.
func init() {
	for _, n := range [][2]string{{"llama", "LlamaForCausalLM"}, {"qwen2", "Qwen2ForCausalLM"}, {"qwen3", "Qwen3ForCausalLM"}} {
		config.Register(config.Family{Arch: n[0], HF: []string{n[1]}, GGUF: []string{n[0]},
			Vocab: 32000, Heads: 32, MaxPos: 2048, Eps: 1e-6, Theta: 10000, Act: "silu", BOS: -1, EOS: -1})
	}
}
