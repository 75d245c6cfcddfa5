package jinja

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestLimits checks that hostile templates fail fast with an error, never
// a crash or a huge allocation.
func TestLimits(t *testing.T) {
	deep := func(open, mid, close string, n int) string {
		return strings.Repeat(open, n) + mid + strings.Repeat(close, n)
	}
	cases := []struct {
		name, template string
		kind           error
	}{
		{"nested parentheses", "{{ " + deep("(", "1", ")", 20000) + " }}", ErrLimit},
		{"nested lists", "{{ " + deep("[", "1", "]", 20000) + " }}", ErrLimit},
		{"nested ifs", deep("{% if true %}", "x", "{% endif %}", 5000), ErrLimit},
		{"nested fors", deep("{% for x in [1] %}", "x", "{% endfor %}", 5000), ErrLimit},
		{"not chain", "{{ " + strings.Repeat("not ", 20000) + "true }}", ErrLimit},
		{"minus chain", "{{ " + strings.Repeat("- ", 20000) + "1 }}", ErrLimit},
		{"plus chain", "{{ 1" + strings.Repeat(" + 1", 20000) + " }}", ErrLimit},
		{"filter chain", "{{ 'x'" + strings.Repeat("|trim", 20000) + " }}", ErrLimit},
		{"attribute chain", "{{ x" + strings.Repeat(".a", 20000) + " }}", ErrLimit},
		{"infinite macro recursion", "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}", ErrLimit},
		{"infinite recursive loop", "{% for x in [1] recursive %}{{ loop([1]) }}{% endfor %}", ErrLimit},
		{"nested loops", "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", ErrLimit},
		{"output size", "{% for i in range(100000) %}{{ 'x' * 100000 }}{% endfor %}", ErrLimit},
		{"string doubling", "{% set ns = namespace(s='x') %}{% for i in range(100) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}", ErrLimit},
		{"list doubling", "{% set ns = namespace(l=[1]) %}{% for i in range(100) %}{% set ns.l = ns.l + ns.l %}{% endfor %}", ErrLimit},
		{"shared list repr", "{% set ns = namespace(l=[1]) %}{% for i in range(60) %}{% set ns.l = [ns.l, ns.l] %}{% endfor %}{{ ns.l }}", ErrLimit},
		{"shared tuple hash", "{% set ns = namespace(t=(1,)) %}{% for i in range(60) %}{% set ns.t = (ns.t, ns.t) %}{% endfor %}{{ {ns.t: 1} }}", ErrLimit},
		{"shared list tojson", "{% set ns = namespace(l=[1]) %}{% for i in range(60) %}{% set ns.l = [ns.l, ns.l] %}{% endfor %}{{ ns.l|tojson }}", ErrLimit},
		{"string repetition", "{{ 'ab' * 10 ** 15 }}", ErrLimit},
		{"list repetition", "{{ [1] * 10 ** 15 }}", ErrLimit},
		{"huge center", "{{ 'x'.center(10 ** 15) }}", ErrLimit},
		{"huge indent", "{{ 'a\\nb'|indent(10 ** 15) }}", ErrLimit},
		{"huge zfill", "{{ 'x'.zfill(10 ** 15) }}", ErrLimit},
		{"huge replace", "{% set s = 'x' * 1000 %}{{ (s * 1000).replace('x', s) }}", ErrLimit},
		{"huge range", "{{ range(10 ** 15)|length }}", ErrRuntime},
		{"huge power", "{{ 2 ** 10 ** 15 }}", ErrRuntime},
		{"huge format width", "{{ '{:999999999999}'.format(1) }}", ErrRuntime},
		{"huge format precision", "{{ '{:.999999999f}'.format(1.5) }}", ErrRuntime},
	}
	opts := &Options{MaxOutput: 1 << 20, MaxSteps: 2_000_000}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			tpl, err := Parse(c.name, c.template)
			if err == nil {
				_, err = tpl.Render(context.Background(), mustVars(t, `{"x": {}}`), opts)
			}
			if !errors.Is(err, c.kind) {
				t.Errorf("got %v, want %v", err, c.kind)
			}
			var je *Error
			if errors.As(err, &je) && je.Type == "InternalError" {
				t.Errorf("internal error: %v", err)
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestContextCancel(t *testing.T) {
	tpl, err := Parse("cancel", "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tpl.Render(ctx, nil, &Options{MaxSteps: 1 << 40}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

func TestSourceTooLarge(t *testing.T) {
	if _, err := Parse("big", strings.Repeat("x", maxSourceBytes+1)); !errors.Is(err, ErrLimit) {
		t.Fatalf("got %v", err)
	}
}

// TestLegitimateDepth checks that templates as deep as real ones stay
// well inside the limits.
func TestLegitimateDepth(t *testing.T) {
	src := "{% macro m(x) %}{% if x > 0 %}{{ m(x - 1) }}{% else %}ok{% endif %}{% endmacro %}{{ m(150) }}"
	if out, err := render(t, src, ""); err != nil || out != "ok" {
		t.Fatalf("got %q, %v", out, err)
	}
	nested := "{{ " + strings.Repeat("(", 60) + "1" + strings.Repeat(")", 60) + " }}"
	if out, err := render(t, nested, ""); err != nil || out != "1" {
		t.Fatalf("got %q, %v", out, err)
	}
}
