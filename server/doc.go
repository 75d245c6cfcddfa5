// Package server is mlx's OpenAI-compatible HTTP API on fasthttp: chat
// completions, completions and the Responses API (streamed as Server-Sent
// Events or aggregated from the same stream), the Conversations API, the
// model list, health and Prometheus metrics, with models loaded on first
// use and unloaded when idle. The same server speaks Anthropic's Messages
// API, Ollama's API and llama-server's /tokenize, /detokenize,
// /apply-template and /infill (fill-in-the-middle). Responses and
// conversations live in the bounded in-memory stores of package store.
//
// Every generating API decodes its request once into one plan (plan.go):
// the conversation, tools, output format, sampling and reasoning, with no
// other API's wire types. prepare turns a plan into the engine's requests,
// and one stream (stream.go) parses what they generate and hands it to
// the encoder of the request's API. Errors about a plan name its keys,
// which each API maps to its own parameter names.
//
// Outputs can be constrained by a grammar (package constrain): a JSON
// response_format (chat, and completions as an extension) or text.format
// (responses), a forced tool_choice ("required" or a named function) whose
// call follows the template's syntax and the tool's parameter schema, or
// a GBNF "grammar" extension. Under a constraint a chat template's thinking
// is turned off unless the request turns it on; then, or when the prompt
// opens <think>, a bounded reasoning block may come first.
//
// The server knows nothing of the terminal nor of how a model is found on
// disk: it consumes models through the small Model and Loader interfaces
// declared here, which cli implements on the runtime and the hub, and tests
// implement with fakes.
package server
