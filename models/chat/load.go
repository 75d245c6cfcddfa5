package chat

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// Templates are the compiled chat templates of one model and its special
// tokens.
type Templates struct {
	Default *Template            // nil when the model only has named templates
	Named   map[string]*Template // other templates by name, e.g. "tool_use", "rag"
	Tokens  SpecialTokens
}

// Load finds and compiles the chat templates of a model (a directory, a
// tokenizer_config.json or chat_template file, or a .gguf file) and reads
// its special tokens.
func Load(path string) (*Templates, error) {
	srcs, err := FindTemplates(path)
	if err != nil {
		return nil, err
	}
	ts, err := CompileAll(srcs)
	if err != nil {
		return nil, err
	}
	if ts.Tokens, err = LoadTokens(path); err != nil {
		return nil, err
	}
	return ts, nil
}

// CompileAll compiles a set of templates.
func CompileAll(srcs []Source) (*Templates, error) {
	ts := &Templates{Named: map[string]*Template{}}
	for _, s := range srcs {
		t, err := Compile(s.Text, s.Origin)
		if err != nil {
			return nil, err
		}
		t.Name = s.Name
		if s.Name == "default" {
			ts.Default = t
		} else {
			ts.Named[s.Name] = t
		}
	}
	return ts, nil
}

// Select picks a template as transformers does: the one named, else
// "tool_use" when tools are given and the model has it, else the default.
func (ts *Templates) Select(name string, tools bool) (*Template, error) {
	switch {
	case name != "" && name != "default":
		if t, ok := ts.Named[name]; ok {
			return t, nil
		}
		return nil, fmt.Errorf("%w named %q (the model has %s)", ErrNoTemplate, name, ts.names())
	case name == "" && tools && ts.Named["tool_use"] != nil:
		return ts.Named["tool_use"], nil
	case ts.Default != nil:
		return ts.Default, nil
	}
	return nil, fmt.Errorf("%w: the model has several chat templates (%s) and no default; name one", ErrNoTemplate, ts.names())
}

func (ts *Templates) names() string {
	var n []string
	if ts.Default != nil {
		n = append(n, "default")
	}
	for k := range ts.Named {
		n = append(n, k)
	}
	sort.Strings(n)
	return strings.Join(n, ", ")
}

// Render selects the template for the input (tool_use when it has tools
// and the model has one) and renders it with the model's special tokens,
// overridden by those set in the input.
func (ts *Templates) Render(ctx context.Context, in Input) (string, error) {
	t, err := ts.Select("", in.Tools != nil)
	if err != nil {
		return "", err
	}
	in.Tokens = ts.Tokens.Merge(in.Tokens)
	return t.Render(ctx, in)
}

// requestOrigin names a template that came with a request in errors.
const requestOrigin = "chat_template"

// RenderSource compiles src, a chat template given with a request rather
// than found with the model, and renders the input with it and the
// model's special tokens tok (overridden by those set in the input). It
// runs in the same sandbox and under the same limits as a model's
// templates.
func RenderSource(ctx context.Context, src string, tok SpecialTokens, in Input) (string, error) {
	t, err := Compile(src, requestOrigin)
	if err != nil {
		return "", err
	}
	in.Tokens = tok.Merge(in.Tokens)
	return t.Render(ctx, in)
}
