package jinja

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Default limits for Render.
const (
	DefaultMaxOutput    = 64 << 20  // bytes of output, and of any one string built
	DefaultMaxMemory    = 512 << 20 // bytes of strings, lists and dicts built by one render
	DefaultMaxSteps     = 20_000_000
	DefaultMaxCallDepth = 200
	maxSourceBytes      = 8 << 20
)

// Template is a parsed template, safe for concurrent use.
type Template struct {
	name string
	body []node
}

// Options tunes one rendering. The zero value uses the defaults.
type Options struct {
	// Globals are variables visible to the template below the render
	// variables (e.g. raise_exception, strftime_now).
	Globals map[string]Value
	// MaxOutput bounds the output and every string the template builds.
	MaxOutput int
	// MaxSteps bounds the work: evaluated nodes, loop iterations and
	// copied elements.
	MaxSteps int64
	// MaxCallDepth bounds nested macro calls and recursive loops.
	MaxCallDepth int
	// MaxMemory bounds the bytes of all the strings, lists and dicts one
	// rendering builds, counted before each is built.
	MaxMemory int64
}

// Parse parses a template; name is used in error messages.
func Parse(name, src string) (t *Template, err error) {
	if len(src) > maxSourceBytes {
		return nil, &Error{Kind: ErrLimit, Type: "LimitError", Name: name,
			Msg: fmt.Sprintf("template source is %d bytes, more than %d", len(src), maxSourceBytes)}
	}
	defer guard(name, &err)
	body, err := parseTemplate(src)
	if err != nil {
		return nil, withName(err, name)
	}
	return &Template{name: name, body: body}, nil
}

// Render renders the template with vars as the render variables (which
// may be nil). The context cancels a long rendering.
func (t *Template) Render(ctx context.Context, vars *Dict, opts *Options) (out string, err error) {
	defer guard(t.name, &err)
	r := newRenderer(ctx, t.name, opts)
	root := r.globals
	if vars != nil {
		root = newScope(r.globals)
		for i, k := range vars.keys {
			if k.kind == KindString {
				root.set(k.s, vars.vals[i])
			}
		}
	}
	var b strings.Builder
	r.out = &output{b: &b, max: r.maxOutput}
	if _, err := r.execBody(t.body, newScope(root)); err != nil {
		return "", withName(err, t.name)
	}
	return b.String(), nil
}

// guard turns an internal bug into an error instead of a crash.
func guard(name string, err *error) {
	if p := recover(); p != nil {
		*err = &Error{Kind: ErrRuntime, Type: "InternalError", Name: name, Msg: fmt.Sprint("internal error: ", p)}
	}
}

func withName(err error, name string) error {
	var e *Error
	if errors.As(err, &e) && e.Name == "" {
		e.Name = name
	}
	return err
}

// output collects rendered text within a byte limit.
type output struct {
	b   *strings.Builder
	max int
}

func (o *output) write(s string) error {
	if o.b.Len()+len(s) > o.max {
		return limitErr("output exceeds %d bytes", o.max)
	}
	o.b.WriteString(s)
	return nil
}

// scope is one level of variables; lookups walk up to the globals. Most
// scopes hold one to three names, so they are kept in a small slice.
type scope struct {
	vars   []binding
	inline [2]binding
	parent *scope
}

type binding struct {
	name string
	v    Value
}

func newScope(parent *scope) *scope {
	s := &scope{parent: parent}
	s.vars = s.inline[:0]
	return s
}

func (s *scope) lookup(name string) (Value, bool) {
	for ; s != nil; s = s.parent {
		for i := range s.vars {
			if s.vars[i].name == name {
				return s.vars[i].v, true
			}
		}
	}
	return Value{}, false
}

func (s *scope) set(name string, v Value) {
	for i := range s.vars {
		if s.vars[i].name == name {
			s.vars[i].v = v
			return
		}
	}
	s.vars = append(s.vars, binding{name, v})
}
