package server

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/server/toolparse"
)

// Generator runs one generation and streams its events (runtime.Engine's
// method).
type Generator interface {
	Generate(ctx context.Context, req runtime.Request, emit func(runtime.Event) error) (runtime.Result, error)
}

// Model is a loaded model as the server uses it.
type Model interface {
	Generator
	// Info describes the model; it does not change while it is loaded.
	Info() ModelInfo
	// Tokenize encodes text; addSpecial adds what the tokenizer's
	// post-processor adds (BOS).
	Tokenize(text string, addSpecial bool) []int32
	// EncodePrompt tokenizes a prompt to generate from (a rendered chat,
	// or a completion's text) with the model's rule for BOS: first when
	// the tokenizer adds one and the text does not already start with it.
	EncodePrompt(text string) []int32
	// Detokenize decodes ids; skipSpecial drops special tokens.
	Detokenize(ids []int32, skipSpecial bool) string
	// RenderChat applies the model's chat template.
	RenderChat(ctx context.Context, msgs []ChatMessage, opt ChatOptions) (string, error)
	// Close releases the model.
	Close() error
}

// Scorer is implemented by models that can measure the log-probabilities
// of a prompt's tokens (completions with echo and logprobs): entry i is for
// ids[i+1] given ids[:i+1], with top alternatives.
type Scorer interface {
	PromptLogprobs(ctx context.Context, ids []int32, top int) ([]runtime.Logprob, error)
}

// Admitter is implemented by models with a bounded queue. Reserve takes a
// place in it for a request about to run, or fails with an error wrapping
// runtime.ErrBusy, so that the server answers 429 before a response starts
// streaming and a request that passed keeps its place. The place goes to
// the first Generate whose context carries it (runtime.WithReservation);
// Release gives it back when no request took it. A nil reservation is
// valid: no place to keep.
type Admitter interface {
	Reserve(ctx context.Context) (*runtime.Reservation, error)
}

// StatsReporter is implemented by models that report their engine's load
// (running and waiting sequences, KV cache blocks), exported on /metrics.
type StatsReporter interface {
	Stats() runtime.Stats
}

// Piecer is implemented by models that know the raw bytes a token adds
// to the text, which may be part of a UTF-8 character; logprobs report
// them as "bytes".
type Piecer interface {
	TokenPiece(id int32) string
}

// Loader loads models by reference (a local path or a hub reference).
// Errors wrapping runtime.ErrModelNotFound become 404s.
type Loader interface {
	Load(ctx context.Context, ref string) (Model, error)
}

// Resolver is implemented by loaders that decide which names a request
// may use: Resolve returns the id of the model name refers to, the same
// for every spelling of one model, or an error wrapping
// runtime.ErrModelNotFound. It must be quick and never reach the network;
// the server loads the model by its id.
type Resolver interface {
	Resolve(name string) (id string, err error)
}

// Lister is implemented by loaders that know models they could load (the
// local cache); GET /v1/models and GET /mlx/models list them.
type Lister interface {
	Available() []Available
}

// Available is a model that can be loaded.
type Available struct {
	ID           string `json:"id"`
	Format       string `json:"format,omitempty"`
	Quantization string `json:"quantization,omitempty"`
	Size         int64  `json:"size,omitempty"`
	Path         string `json:"path,omitempty"`
	// Modified is when its files were last written (zero: unknown).
	Modified time.Time `json:"-"`
}

// ModelInfo describes a loaded model.
type ModelInfo struct {
	Path         string
	Format       string // "gguf", "safetensors", "mlx"
	Quantization string
	Arch         string
	Parameters   int64
	Context      int   // context length in tokens
	VocabSize    int   // token ids are below it
	Memory       int64 // bytes: weights, KV cache, scratch
	LoadTime     time.Duration
	// Parallel is how many sequences the engine runs at once (≥ 1): the n
	// choices of a request run that many at a time.
	Parallel int
	// Defaults are the sampling parameters of a request that sets none
	// (the model's generation_config.json over sample.Defaults).
	Defaults sample.Params
	// ToolFormat is the tool call syntax of the chat template.
	ToolFormat toolparse.Format
	// ToolResponses: the template reads tool results from its assistant
	// messages' tool_responses, not from tool messages (the first Gemma 4
	// templates).
	ToolResponses bool
	// Created is when the model files were made (the "created" of
	// /v1/models); zero means the load time.
	Created time.Time
}

// ChatMessage is a message as chat templates take it: tool call
// arguments are JSON values, not JSON text, and the content is always
// text: a null content (an assistant turn that only calls tools, as
// OpenAI clients send it back) is empty, as OpenAI, vLLM and llama.cpp
// take it, since templates concatenate or search it.
type ChatMessage struct {
	Role             string             `json:"role"`
	Content          string             `json:"content"`
	Name             string             `json:"name,omitempty"`
	ToolCalls        []TemplateToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string             `json:"tool_call_id,omitempty"`
	ReasoningContent string             `json:"reasoning_content,omitempty"`
	// Thinking is the reasoning again, under the name Harmony templates
	// (gpt-oss) read it by.
	Thinking string `json:"thinking,omitempty"`
	// ToolResponses are the results of the message's tool calls, for
	// templates that read them there (ModelInfo.ToolResponses).
	ToolResponses []ToolResponse `json:"tool_responses,omitempty"`
}

// ToolResponse is the result of a tool call: the function's name and what
// it returned, a JSON value (the text as a JSON string when it is not
// JSON).
type ToolResponse struct {
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

// TemplateToolCall is a tool call of an assistant message.
type TemplateToolCall struct {
	ID       string               `json:"id,omitempty"`
	Type     string               `json:"type"`
	Function TemplateFunctionCall `json:"function"`
}

// TemplateFunctionCall is the function of a tool call: Arguments holds a
// JSON value (the arguments object), or the text as a JSON string when it
// is not JSON.
type TemplateFunctionCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// ChatOptions are the inputs of a chat template besides the messages.
type ChatOptions struct {
	// Tools are the declared tools as JSON objects ({"type":"function",
	// "function":{...}}); nil when none.
	Tools []json.RawMessage
	// AddGenerationPrompt opens an assistant turn at the end.
	AddGenerationPrompt bool
	// ContinueFinalMessage leaves the last (assistant) message open.
	ContinueFinalMessage bool
	// Kwargs are extra template variables (chat_template_kwargs, e.g.
	// enable_thinking).
	Kwargs map[string]any
	// Template is a chat template that came with the request (its
	// chat_template) and replaces the model's; empty means the model's.
	// It renders under the same limits as the model's templates.
	Template string
}
