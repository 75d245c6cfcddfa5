// Package chat turns a conversation into the prompt text a model expects,
// by rendering the model's own Hugging Face chat template exactly as
// transformers' apply_chat_template does (see package jinja).
//
// Templates are found next to the model (chat_template.jinja,
// chat_template.json, tokenizer_config.json, or the GGUF metadata), compiled
// once with Compile or Load, and rendered per request with Render.
package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/mlxrun/mlx/models/chat/jinja"
)

// Sentinel errors, wrapped with %w.
var (
	// ErrNoTemplate means a model has no chat template.
	ErrNoTemplate = errors.New("no chat template")
	// ErrTemplate means a chat template failed to parse or render; the
	// wrapped *jinja.Error tells why.
	ErrTemplate = errors.New("chat template failed")
	// ErrInput means a message, tool or variable is malformed.
	ErrInput = errors.New("invalid chat input")
)

// Template is a compiled chat template.
type Template struct {
	Name   string // "default", or the name in a list of templates ("tool_use", "rag")
	Origin string // where the text came from, e.g. "dir/tokenizer_config.json"
	Source string // the template text
	tpl    *jinja.Template
}

// Compile parses a chat template; origin names it in errors.
func Compile(src, origin string) (*Template, error) {
	t, err := jinja.Parse(origin, src)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTemplate, err)
	}
	return &Template{Name: "default", Origin: origin, Source: src, tpl: t}, nil
}

// Input is one rendering request.
type Input struct {
	Messages []Message
	// Tools are the tool definitions (JSON objects); nil passes None.
	Tools []json.RawMessage
	// Documents are retrieval documents (JSON objects); nil passes None.
	Documents           []json.RawMessage
	AddGenerationPrompt bool
	// Tokens are the special tokens passed to the template.
	Tokens SpecialTokens
	// Kwargs are extra template variables (e.g. enable_thinking), added
	// last so they override everything else. Values are Go values or
	// json.RawMessage.
	Kwargs map[string]any
	// Now is strftime_now's clock; nil means time.Now.
	Now func() time.Time
	// Options bounds the rendering; nil means the jinja defaults.
	Options *jinja.Options
}

// Render renders the conversation to the prompt text.
func (t *Template) Render(ctx context.Context, in Input) (string, error) {
	vars, err := in.vars()
	if err != nil {
		return "", err
	}
	opts := jinja.Options{}
	if in.Options != nil {
		opts = *in.Options
	}
	opts.Globals = globals(in.Now, opts.Globals)
	out, err := t.tpl.Render(ctx, vars, &opts)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrTemplate, err)
	}
	return out, nil
}

// vars builds the template variables in transformers' order: messages,
// tools, documents, add_generation_prompt, special tokens, then kwargs.
func (in *Input) vars() (*jinja.Dict, error) {
	d := jinja.NewDict()
	msgs := make([]jinja.Value, len(in.Messages))
	for i := range in.Messages {
		v, err := in.Messages[i].value()
		if err != nil {
			return nil, fmt.Errorf("%w: message %d: %w", ErrInput, i, err)
		}
		msgs[i] = v
	}
	d.Set("messages", jinja.List(msgs...))
	for _, l := range []struct {
		name  string
		items []json.RawMessage
	}{{"tools", in.Tools}, {"documents", in.Documents}} {
		v, err := rawList(l.items)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrInput, l.name, err)
		}
		d.Set(l.name, v)
	}
	d.Set("add_generation_prompt", jinja.Bool(in.AddGenerationPrompt))
	in.Tokens.set(d)
	keys := make([]string, 0, len(in.Kwargs))
	for k := range in.Kwargs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, err := jinja.FromGo(in.Kwargs[k])
		if err != nil {
			return nil, fmt.Errorf("%w: variable %s: %w", ErrInput, k, err)
		}
		d.Set(k, v)
	}
	return d, nil
}

func rawList(items []json.RawMessage) (jinja.Value, error) {
	if items == nil {
		return jinja.None(), nil
	}
	out := make([]jinja.Value, len(items))
	for i, raw := range items {
		v, err := jinja.FromJSON(raw)
		if err != nil {
			return jinja.Value{}, fmt.Errorf("item %d: %w", i, err)
		}
		out[i] = v
	}
	return jinja.List(out...), nil
}

// globals are transformers' raise_exception and strftime_now.
func globals(now func() time.Time, extra map[string]jinja.Value) map[string]jinja.Value {
	if now == nil {
		now = time.Now
	}
	g := map[string]jinja.Value{
		"raise_exception": jinja.Func("raise_exception", func(args []jinja.Value, kw []jinja.Kwarg) (jinja.Value, error) {
			if len(args) != 1 || len(kw) > 0 {
				return jinja.Value{}, fmt.Errorf("raise_exception() takes exactly one argument")
			}
			return jinja.Value{}, jinja.RaiseError(args[0].String())
		}),
		"strftime_now": jinja.Func("strftime_now", func(args []jinja.Value, kw []jinja.Kwarg) (jinja.Value, error) {
			if len(args) != 1 || len(kw) > 0 || args[0].Kind() != jinja.KindString {
				return jinja.Value{}, fmt.Errorf("strftime_now() takes one format string")
			}
			return jinja.String(Strftime(now(), args[0].String())), nil
		}),
	}
	for k, v := range extra {
		g[k] = v
	}
	return g
}

// RaisedMessage returns the message of an error the template raised
// itself with raise_exception, exactly as the template worded it.
func RaisedMessage(err error) (string, bool) {
	var je *jinja.Error
	if errors.As(err, &je) && errors.Is(err, jinja.ErrRaised) {
		return je.Msg, true
	}
	return "", false
}
