package jinja

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

const fuzzVars = `{"messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": "hi"},
 {"role": "assistant", "content": null, "tool_calls": [{"id": "a1", "type": "function",
  "function": {"name": "f", "arguments": {"x": [1, 2.5, "y"]}}}]},
 {"role": "tool", "tool_call_id": "a1", "content": "42"}, {"role": "user", "content": [{"type": "text", "text": "t"}]}],
 "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object",
  "properties": {"x": {"type": "array", "items": {"type": "string"}}}, "required": ["x"]}}}],
 "add_generation_prompt": true, "bos_token": "<s>", "eos_token": "</s>"}`

var fuzzSeeds = []string{
	"{% for m in messages %}{{ m.role }}: {{ m.content }}{% endfor %}",
	"{%- if tools %}{{ tools|tojson(indent=2) }}{% endif -%}{{ messages[-1]['content'] }}",
	"{% set ns = namespace(x=[]) %}{% for m in messages if m.role != 'tool' %}{% set ns.x = ns.x + [loop.index] %}{% endfor %}{{ ns.x }}",
	"{% macro r(v) %}{% if v is mapping %}{% for k, w in v|items %}{{ k }}={{ r(w) }}{% endfor %}{% else %}{{ v }}{% endif %}{% endmacro %}{{ r(tools[0]) }}",
	"{{ '%s|%5.2f|%x' % ('a', 1.5, 255) }}{{ '{0:>4}'.format('b') }}{{ messages|map(attribute='role')|unique|join(',') }}",
	"{% raw %}{{ x }}{% endraw %}{# c #}{% filter upper %}{{ bos_token }}{% endfilter %}{{ 'abc'[::-1] }}",
}

// checkNoInternal fails when rendering panicked and the last-resort guard
// turned the panic into an error: that is a bug.
func checkNoInternal(t *testing.T, src string, err error) {
	t.Helper()
	var je *Error
	if errors.As(err, &je) && je.Type == "InternalError" {
		t.Fatalf("internal error on %q: %v", src, err)
	}
}

func renderFuzz(t *testing.T, src string, vars *Dict) {
	t.Helper()
	tpl, err := Parse("fuzz", src)
	if err == nil {
		_, err = tpl.Render(context.Background(), vars, &Options{MaxOutput: 1 << 16, MaxSteps: 20000})
	}
	checkNoInternal(t, src, err)
}

func FuzzRender(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	vars := mustVars(f, fuzzVars)
	f.Fuzz(func(t *testing.T, src string) { renderFuzz(t, src, vars) })
}

// fragments are spliced into templates to garble them.
var fragments = []string{"{{", "}}", "{%", "%}", "{#", "#}", "-", "+", "(", ")", "[", "]", "{", "}", "|", ".", ",",
	":", "'", "\"", "\\", " is ", " not ", " in ", " if ", " else ", "endif", "endfor", "for", "set", "macro", "loop",
	"raw", "endraw", "**", "//", "%", "~", "none", "1e999", "-1", "0", "[::-1]", "\n", "\x00", "é", "😀"}

// mutate garbles src with a few random edits.
func mutate(rng *rand.Rand, src string) string {
	b := []byte(src)
	for n := rng.IntN(4) + 1; n > 0; n-- {
		if len(b) == 0 {
			b = append(b, fragments[rng.IntN(len(fragments))]...)
			continue
		}
		i := rng.IntN(len(b))
		switch rng.IntN(4) {
		case 0:
			j := min(len(b), i+rng.IntN(16)+1)
			b = append(b[:i], b[j:]...)
		case 1:
			f := fragments[rng.IntN(len(fragments))]
			b = append(b[:i], append([]byte(f), b[i:]...)...)
		case 2:
			b = b[:i]
		default:
			j := rng.IntN(len(b))
			b[i], b[j] = b[j], b[i]
		}
	}
	return string(b)
}

// garble renders rounds randomly garbled variants of sources; each must
// render or fail with an error, never panic.
func garble(t *testing.T, sources []string, rounds int) {
	t.Helper()
	vars := mustVars(t, fuzzVars)
	rng := rand.New(rand.NewPCG(1, 2))
	if testing.Short() {
		rounds /= 10
	}
	for i := 0; i < rounds; i++ {
		renderFuzz(t, mutate(rng, sources[rng.IntN(len(sources))]), vars)
	}
}

func TestGarbledSeeds(t *testing.T) { garble(t, fuzzSeeds, 2000) }

// TestGarbledFixtureTemplates garbles the real templates of the shared
// test data.
func TestGarbledFixtureTemplates(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(fixture.Path(t, "templates"), "*.json"))
	var sources []string
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		v, err := FromJSON(data)
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := v.AsDict(); ok {
			if s, ok := d.Get("template"); ok && s.Kind() == KindString {
				sources = append(sources, s.String())
			}
		}
	}
	if len(sources) == 0 {
		t.Fatal("no fixture templates")
	}
	garble(t, sources, 3000)
}
