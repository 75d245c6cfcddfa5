// Package server is mlx's OpenAI-compatible HTTP API on fasthttp: chat
// completions, completions and the Responses API (streamed as Server-Sent
// Events or aggregated from the same stream), the Conversations API, the
// model list, health and Prometheus metrics, with models loaded on first
// use and unloaded when idle. Responses and conversations live in the
// bounded in-memory stores of package store.
//
// The server knows nothing of the terminal nor of how a model is found on
// disk: it consumes models through the small Model and Loader interfaces
// declared here, which cli implements on the runtime and the hub, and tests
// implement with fakes.
package server
