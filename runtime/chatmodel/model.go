// Package chatmodel is the chat side of a loaded model: its chat
// templates and special tokens, the rule that turns a rendered prompt into
// token ids, and the sampling defaults of a request that sets none.
//
// The runtime builds one Model at load, from the metadata and tokenizer it
// has already parsed, and every front end (pipe mode, the terminal chat,
// every HTTP API) renders and tokenizes through it, so that they all give
// the engine the same prompt with the same defaults. It lives beside the
// runtime rather than in models/chat because the defaults are the
// runtime's sampling parameters.
package chatmodel

import (
	"context"
	"fmt"
	"strings"

	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/tokenizer"
	"github.com/mlxrun/mlx/runtime/sample"
)

// Model is the chat side of one loaded model. It does not change after
// New and is safe for concurrent use.
type Model struct {
	tok       *tokenizer.Tokenizer
	templates *chat.Templates // nil when the model has none
	tokens    chat.SpecialTokens
	defaults  sample.Params
	err       error // why the model's templates could not be compiled
}

// New builds the chat model from a tokenizer, the model's compiled
// templates (nil when it has none; err when they failed to compile), its
// special tokens and its generation defaults.
func New(tok *tokenizer.Tokenizer, ts *chat.Templates, tokens chat.SpecialTokens, gen config.Generation, err error) *Model {
	if ts != nil {
		ts.Tokens = tokens
	}
	return &Model{tok: tok, templates: ts, tokens: tokens, defaults: Defaults(gen), err: err}
}

// Err reports chat templates that were found but failed to compile; the
// model can still complete text.
func (m *Model) Err() error { return m.err }

// Templates returns the compiled chat templates, nil when the model has
// none.
func (m *Model) Templates() *chat.Templates { return m.templates }

// Tokens returns the special tokens templates see.
func (m *Model) Tokens() chat.SpecialTokens { return m.tokens }

// Tokenizer returns the model's tokenizer.
func (m *Model) Tokenizer() *tokenizer.Tokenizer { return m.tok }

// Defaults returns the sampling parameters of a request that sets none.
func (m *Model) Defaults() sample.Params { return m.defaults }

// Source returns the text of the templates a conversation with tools
// renders with (the default and tool_use), for detecting the tool call
// syntax they teach; "" when the model has none.
func (m *Model) Source() string {
	if m.templates == nil {
		return ""
	}
	var b strings.Builder
	if t := m.templates.Default; t != nil {
		b.WriteString(t.Source)
	}
	if t := m.templates.Named["tool_use"]; t != nil {
		b.WriteString(t.Source)
	}
	return b.String()
}

// Origin names where the default template came from, "" when there is
// none.
func (m *Model) Origin() string {
	if m.templates == nil || m.templates.Default == nil {
		return ""
	}
	return m.templates.Default.Origin
}

// Render renders a conversation with the model's templates, or with src
// when it is not empty (a template that came with a request). It wraps
// chat.ErrNoTemplate when there is neither.
func (m *Model) Render(ctx context.Context, in chat.Input, src string) (string, error) {
	if src != "" {
		return chat.RenderSource(ctx, src, m.tokens, in)
	}
	if m.err != nil {
		return "", m.err
	}
	if m.templates == nil {
		return "", fmt.Errorf("%w: the model has none", chat.ErrNoTemplate)
	}
	return m.templates.Render(ctx, in)
}

// Encode tokenizes a rendered chat prompt. Special tokens written in the
// text are parsed as such. BOS comes first when the tokenizer adds one
// and the template did not already write it, as llama.cpp does, so that a
// prompt never starts with two; EOS is never added, since the prompt ends
// in the open turn the model is to answer.
func (m *Model) Encode(prompt string) []int32 {
	ids := m.tok.Encode(prompt, false)
	bos := int32(m.tok.BOS())
	if m.tok.AddBOS() && (len(ids) == 0 || ids[0] != bos) {
		ids = append(ids, 0)
		copy(ids[1:], ids)
		ids[0] = bos
	}
	return ids
}

// Defaults applies a model's generation_config.json (or GGUF metadata) to
// the default sampling parameters, as vLLM does for requests that set
// nothing: do_sample false means greedy decoding. A config outside the
// parameters' ranges is ignored as a whole.
func Defaults(g config.Generation) sample.Params {
	p := sample.Defaults()
	if g.Temperature != nil {
		p.Temperature = *g.Temperature
	}
	if g.TopP != nil && *g.TopP > 0 {
		p.TopP = *g.TopP
	}
	if g.TopK != nil {
		p.TopK = max(*g.TopK, 0)
	}
	if g.MinP != nil {
		p.MinP = *g.MinP
	}
	if g.RepetitionPenalty != nil && *g.RepetitionPenalty > 0 {
		p.RepetitionPenalty = *g.RepetitionPenalty
	}
	if g.DoSample != nil && !*g.DoSample {
		p.Temperature = 0
	}
	if p.Validate() != nil {
		return sample.Defaults()
	}
	return p
}
