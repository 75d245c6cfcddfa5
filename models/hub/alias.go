package hub

import "strings"

// Alias is a short name for a well-known model repo.
type Alias struct {
	Name   string // e.g. "qwen3:0.6b"
	Target string // a reference ParseRef reads, e.g. "Qwen/Qwen3-0.6B"
}

// aliases are ungated repos published by the model makers or by well-known
// converters; a GGUF target names its quantization.
var aliases = []Alias{
	{"qwen3:0.6b", "Qwen/Qwen3-0.6B"},
	{"qwen3:0.6b-mlx", "mlx-community/Qwen3-0.6B-4bit"},
	{"qwen3:1.7b", "Qwen/Qwen3-1.7B"},
	{"qwen3:4b", "Qwen/Qwen3-4B-GGUF:Q4_K_M"},
	{"qwen2.5:0.5b", "Qwen/Qwen2.5-0.5B-Instruct"},
	{"qwen2.5:1.5b", "Qwen/Qwen2.5-1.5B-Instruct"},
	{"qwen2.5:0.5b-gguf", "Qwen/Qwen2.5-0.5B-Instruct-GGUF:Q4_K_M"},
	{"smollm2:135m", "HuggingFaceTB/SmolLM2-135M-Instruct"},
	{"smollm2:360m", "HuggingFaceTB/SmolLM2-360M-Instruct"},
	{"smollm2:1.7b", "HuggingFaceTB/SmolLM2-1.7B-Instruct"},
	{"llama3.2:1b", "unsloth/Llama-3.2-1B-Instruct"},
	{"llama3.2:3b", "unsloth/Llama-3.2-3B-Instruct-GGUF:Q4_K_M"},
	{"tinyllama:1.1b", "TinyLlama/TinyLlama-1.1B-Chat-v1.0"},
}

// Aliases returns the built-in short names, in a stable order.
func Aliases() []Alias { return append([]Alias(nil), aliases...) }

// lookupAlias returns the target of the alias name (case-insensitive).
func lookupAlias(name string) (string, bool) {
	for _, a := range aliases {
		if strings.EqualFold(a.Name, name) {
			return a.Target, true
		}
	}
	return "", false
}
