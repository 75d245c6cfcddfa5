// Package runtime is the inference engine: it loads a model (a GGUF file or a
// Hugging Face directory, MLX-quantized or not), owns it from one scheduler
// goroutine, and generates tokens for requests through one streaming call,
// Engine.Generate, that every front end uses.
//
// Requests wait in a bounded queue (ErrBusy when it is full) and start in
// order while fewer than Options.Parallel sequences run. The scheduler
// goroutine owns the running set: each step is one forward pass over the
// next token of every decoding sequence plus a chunk of the one prompt
// being computed, within the Options.Batch token budget, so that new
// requests do not stall running streams and all of them share each read
// of the weights. Sampled tokens are decoded to text and emitted.
//
// The KV cache is one budget of blocks of BlockSize positions
// (kvcache.Pool). A prompt starts after the longest prefix the cache
// holds: the blocks of finished and running sequences are indexed by their
// tokens (a chat's earlier turns, a shared system prompt), and a sequence
// starting beside a running one with the same prompt (the other choices of
// one request) copies its last, partial block. When blocks run out, the
// latest admitted sequence goes back to the queue and later computes its
// tokens again. A cancelled context or an
// error from the emit callback stops the sequence within one step and
// frees its blocks.
package runtime

import (
	_ "github.com/mlxrun/mlx/runtime/arch/bert"       // registers bert
	_ "github.com/mlxrun/mlx/runtime/arch/gemma2"     // registers gemma2
	_ "github.com/mlxrun/mlx/runtime/arch/gemma3"     // registers gemma3
	_ "github.com/mlxrun/mlx/runtime/arch/gemma4"     // registers gemma4
	_ "github.com/mlxrun/mlx/runtime/arch/gptoss"     // registers gpt-oss
	_ "github.com/mlxrun/mlx/runtime/arch/llama"      // registers llama
	_ "github.com/mlxrun/mlx/runtime/arch/nomicbert"  // registers nomic-bert
	_ "github.com/mlxrun/mlx/runtime/arch/phi3"       // registers phi3
	_ "github.com/mlxrun/mlx/runtime/arch/qwen2"      // registers qwen2
	_ "github.com/mlxrun/mlx/runtime/arch/qwen3"      // registers qwen3
	_ "github.com/mlxrun/mlx/runtime/arch/qwen35"     // registers qwen35
	_ "github.com/mlxrun/mlx/runtime/arch/qwen3moe"   // registers qwen3moe
	_ "github.com/mlxrun/mlx/runtime/arch/xlmroberta" // registers xlm-roberta
)
