// Package server is mlx's OpenAI-compatible HTTP API on fasthttp: chat
// completions and completions (streamed as Server-Sent Events or
// aggregated from the same stream), the model list, health and Prometheus
// metrics, with models loaded on first use and unloaded when idle.
//
// The server knows nothing of the terminal nor of how a model is found on
// disk: it consumes models through the small Model and Loader interfaces
// declared here, which cli implements on the runtime and the hub, and tests
// implement with fakes.
package server
