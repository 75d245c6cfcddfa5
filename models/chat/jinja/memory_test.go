package jinja

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// renderAlloc renders src and returns the error and the bytes allocated.
func renderAlloc(t *testing.T, src string, opts *Options) (error, uint64) {
	t.Helper()
	tpl, err := Parse("budget", src)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = tpl.Render(context.Background(), nil, opts)
	runtime.ReadMemStats(&after)
	return err, after.TotalAlloc - before.TotalAlloc
}

// TestMemoryBombs checks that templates whose lists outgrow memory fail
// with ErrLimit before they allocate more than the render's budget.
func TestMemoryBombs(t *testing.T) {
	if raceEnabled {
		t.Skip("builds strings of 60 MB, too slow under the race detector; the plain test run covers it")
	}
	cases := []struct{ name, src string }{
		{"string to list", `{{ ("x" * 60000000)|list|length }}`},
		{"list doubling", `{% set ns = namespace(l=[1]) %}{% for i in range(26) %}{% set ns.l = ns.l + ns.l %}{% endfor %}{{ ns.l|length }}`},
		{"list repetition", `{{ ([1] * 60000000)|length }}`},
		{"string loop", `{% for c in "x" * 60000000 %}{% endfor %}`},
		{"split", `{{ ("x," * 30000000).split(",")|length }}`},
		{"slice", `{% set ns = namespace(n=0) %}{% set s = "x" * 60000000 %}{% for i in range(100) %}{% set ns.n = ns.n + s[::2]|length %}{% endfor %}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err, alloc := renderAlloc(t, c.src, &Options{MaxSteps: 1 << 40})
			if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "memory") {
				t.Fatalf("got %v, want ErrLimit about memory", err)
			}
			if limit := uint64(DefaultMaxMemory) + 256<<20; alloc > limit {
				t.Errorf("allocated %d MiB, want at most %d MiB", alloc>>20, limit>>20)
			}
		})
	}
}

// TestMemoryBudget checks that the budget is one per render and counts
// every list built, not only the largest: a template that builds many
// lists within any one-value limit fails under a small budget and renders
// under the default one.
func TestMemoryBudget(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`{% set ns = namespace(n=0) %}{% for i in range(200) %}{% set l = range(1000)|list %}{% set ns.n = ns.n + l|length %}{% endfor %}{{ ns.n }}`, "200000"},
		{`{% set d = dict(range(10000)|batch(2)) %}{% set ns = namespace(n=0) %}{% for i in range(40) %}{% set ns.n = ns.n + d.items()|list|length %}{% endfor %}{{ ns.n }}`, "200000"},
		{`{% set d = dict(range(10000)|batch(2)) %}{% set ns = namespace(n=0) %}{% for i in range(40) %}{% set ns.n = ns.n + d|dictsort|length %}{% endfor %}{{ ns.n }}`, "200000"},
	} {
		tpl, err := Parse("budget", c.src)
		if err != nil {
			t.Fatal(err)
		}
		out, err := tpl.Render(context.Background(), nil, nil)
		if err != nil || out != c.want {
			t.Fatalf("%s\ndefault budget: %q, %v", c.src, out, err)
		}
		_, err = tpl.Render(context.Background(), nil, &Options{MaxMemory: 4 << 20})
		if !errors.Is(err, ErrLimit) {
			t.Fatalf("%s\n4 MiB budget: got %v, want ErrLimit", c.src, err)
		}
		if out, err := tpl.Render(context.Background(), nil, nil); err != nil || out != c.want {
			t.Fatalf("%s\na second render has a budget of its own: %q, %v", c.src, out, err)
		}
	}
}

// TestSubstring checks slices with step 1, which are substrings of the
// original string, against slicing its runes with Python's bounds.
func TestSubstring(t *testing.T) {
	const s = "añb€c😀d"
	rs := []rune(s)
	clamp := func(i int) int {
		if i < 0 {
			i += len(rs)
		}
		return min(max(i, 0), len(rs))
	}
	vars := mustVars(t, `{"s": "`+s+`"}`)
	for _, b := range [][2]int{{1, 7}, {0, -1}, {2, 5}, {-3, 7}, {5, 2}, {0, 100}, {-100, 2}, {3, 3}} {
		lo, hi := clamp(b[0]), clamp(b[1])
		want := ""
		if hi > lo {
			want = string(rs[lo:hi])
		}
		for _, step := range []string{"", ":1"} {
			src := fmt.Sprintf("{{ s[%d:%d%s] }}", b[0], b[1], step)
			tpl, err := Parse("sub", src)
			if err != nil {
				t.Fatal(err)
			}
			if out, err := tpl.Render(context.Background(), vars, nil); err != nil || out != want {
				t.Errorf("%s = %q, %v; want %q", src, out, err, want)
			}
		}
	}
}
