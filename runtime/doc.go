// Package runtime is the inference engine: it loads a model (a GGUF file or a
// Hugging Face directory, MLX-quantized or not), owns it from one scheduler
// goroutine, and generates tokens for requests through one streaming call,
// Engine.Generate, that every front end uses.
//
// Requests wait in a bounded queue; the scheduler runs one sequence at a
// time: the prompt is prefilled in chunks (reusing the part of the KV cache
// that the previous request left with the same tokens), then tokens are
// sampled, decoded to text and emitted one step at a time. A cancelled
// context or an error from the emit callback stops the sequence within one
// step.
package runtime

import (
	_ "github.com/mlxrun/mlx/runtime/arch/llama" // registers llama
	_ "github.com/mlxrun/mlx/runtime/arch/qwen2" // registers qwen2
	_ "github.com/mlxrun/mlx/runtime/arch/qwen3" // registers qwen3
)
