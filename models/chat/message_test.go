package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/chat/jinja"
)

func renderWith(t *testing.T, src string, in Input) string {
	t.Helper()
	tpl, err := Compile(src, "test")
	if err != nil {
		t.Fatal(err)
	}
	out, err := tpl.Render(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestParsedMessagesKeepShape checks that parsed messages reach the
// template with their keys in order, nulls as None and unknown keys kept.
func TestParsedMessagesKeepShape(t *testing.T) {
	js := `[{"content": null, "role": "assistant", "tool_calls": [{"type": "function",
		"function": {"arguments": "{\"a\": 1}", "name": "f"}, "id": "x1"}], "name": null, "weird": {"b": 1, "a": [true]}},
		{"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image", "url": "u"}]}]`
	msgs, err := ParseMessages([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	got := renderWith(t, "{{ messages|tojson }}", Input{Messages: msgs})
	want := `[{"content": null, "role": "assistant", "tool_calls": [{"type": "function", "function": ` +
		`{"arguments": "{\"a\": 1}", "name": "f"}, "id": "x1"}], "name": null, "weird": {"b": 1, "a": [true]}}, ` +
		`{"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image", "url": "u"}]}]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestBuiltMessages checks messages built in Go: role and content always,
// the optional fields only when set.
func TestBuiltMessages(t *testing.T) {
	msgs := []Message{
		{Role: "system", Content: Text("be brief")},
		{Role: "assistant", Content: Content{Null: true}, ReasoningContent: "think",
			ToolCalls: []ToolCall{{ID: "c1", Function: FunctionCall{Name: "f", Arguments: json.RawMessage(`{"x": [1, 2]}`)}}}},
		{Role: "tool", Content: Text("42"), ToolCallID: "c1", Name: "f"},
	}
	got := renderWith(t, "{{ messages|tojson }}", Input{Messages: msgs})
	want := `[{"role": "system", "content": "be brief"}, {"role": "assistant", "content": null, ` +
		`"reasoning_content": "think", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", ` +
		`"arguments": {"x": [1, 2]}}}]}, {"role": "tool", "content": "42", "tool_call_id": "c1", "name": "f"}]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestContextVariables checks the variables transformers passes: tools and
// documents defined as None when absent, tokens only when set, kwargs last.
func TestContextVariables(t *testing.T) {
	src := "{{ tools is defined }}/{{ tools is none }}/{{ documents is none }}/{{ add_generation_prompt }}/" +
		"{{ bos_token is defined }}/{{ eos_token }}/{{ enable_thinking }}/{{ strftime_now('%Y') }}/{{ extra.k }}"
	now := func() time.Time { return time.Date(1999, 1, 2, 0, 0, 0, 0, time.UTC) }
	in := Input{AddGenerationPrompt: true, Tokens: SpecialTokens{EOS: "</s>"}, Now: now,
		Kwargs: map[string]any{"enable_thinking": false, "extra": json.RawMessage(`{"k": "v"}`), "eos_token": "E"}}
	if got, want := renderWith(t, src, in), "True/True/True/True/False/E/False/1999/v"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	in.Tools = []json.RawMessage{}
	if got := renderWith(t, "{{ tools is none }}{{ tools|length }}", in); got != "False0" {
		t.Errorf("empty tools: %q", got)
	}
}

func TestInputErrors(t *testing.T) {
	tpl, err := Compile("{{ messages }}", "test")
	if err != nil {
		t.Fatal(err)
	}
	bad := []Input{
		{Tools: []json.RawMessage{json.RawMessage(`{"a":`)}},
		{Messages: []Message{{Role: "x", Extra: map[string]json.RawMessage{"k": json.RawMessage(`[`)}}}},
		{Kwargs: map[string]any{"c": make(chan int)}},
	}
	for i, in := range bad {
		if _, err := tpl.Render(context.Background(), in); !errors.Is(err, ErrInput) {
			t.Errorf("input %d: got %v, want ErrInput", i, err)
		}
	}
	for _, js := range []string{`{"role": "user"}`, `[{"role": 5}]`, `[{"content": {"a": 1}}]`, `[null]`} {
		if _, err := ParseMessages([]byte(js)); !errors.Is(err, ErrInput) {
			t.Errorf("ParseMessages(%s): got %v", js, err)
		}
	}
}

func TestCompileError(t *testing.T) {
	if _, err := Compile("{% if %}", "bad.jinja"); !errors.Is(err, ErrTemplate) {
		t.Errorf("got %v", err)
	}
}

// TestTemplatesRender picks tool_use for tools and merges the tokens.
func TestTemplatesRender(t *testing.T) {
	ts, err := CompileAll([]Source{{Name: "default", Text: "D{{ bos_token }}{{ eos_token }}"},
		{Name: "tool_use", Text: "T{{ bos_token }}{{ eos_token }}"}})
	if err != nil {
		t.Fatal(err)
	}
	ts.Tokens = SpecialTokens{BOS: "<s>", EOS: "</s>"}
	cases := []struct {
		in   Input
		want string
	}{
		{Input{}, "D<s></s>"},
		{Input{Tools: []json.RawMessage{json.RawMessage(`{}`)}}, "T<s></s>"},
		{Input{Tokens: SpecialTokens{EOS: "<eot>"}}, "D<s><eot>"},
	}
	for _, c := range cases {
		got, err := ts.Render(context.Background(), c.in)
		if err != nil || got != c.want {
			t.Errorf("got %q, %v; want %q", got, err, c.want)
		}
	}
}

// TestRenderSource renders a template given with a request: with the
// model's tokens, those of the input over them, and under the limits of
// every template.
func TestRenderSource(t *testing.T) {
	tok := SpecialTokens{BOS: "<s>", EOS: "</s>"}
	src := "{{ bos_token }}{% for m in messages %}[{{ m.role }}:{{ m.content }}]{% endfor %}{{ eos_token }}"
	in := Input{Messages: []Message{{Role: "user", Content: Text("hi")}}}
	if got, err := RenderSource(context.Background(), src, tok, in); err != nil || got != "<s>[user:hi]</s>" {
		t.Errorf("got %q, %v", got, err)
	}
	in.Tokens = SpecialTokens{EOS: "<eot>"}
	if got, err := RenderSource(context.Background(), src, tok, in); err != nil || got != "<s>[user:hi]<eot>" {
		t.Errorf("input tokens: got %q, %v", got, err)
	}
	for _, bad := range []string{"{% for %}", "{{ messages[0].content * 100000000 }}", "{{ raise_exception('no') }}"} {
		_, err := RenderSource(context.Background(), bad, tok, in)
		var je *jinja.Error
		if !errors.Is(err, ErrTemplate) || !errors.As(err, &je) {
			t.Errorf("%s: got %v, want a template error", bad, err)
		}
	}
}

// TestConcurrentRender renders one compiled template from many goroutines
// (run with -race): templates are shared read-only across requests.
func TestConcurrentRender(t *testing.T) {
	src := `{% set ns = namespace(n=0) %}{% macro m(x) %}[{{ x }}]{% endmacro %}` +
		`{% for msg in messages %}{% set ns.n = ns.n + 1 %}{{ m(msg.content) }}{{ loop.index }}{% endfor %}{{ ns.n }}`
	tpl, err := Compile(src, "concurrent")
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Messages: []Message{{Role: "user", Content: Text("a")}, {Role: "assistant", Content: Text("b")}}}
	want, err := tpl.Render(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			for range 50 {
				got, err := tpl.Render(context.Background(), in)
				if err == nil && got != want {
					err = errors.New("got " + got + ", want " + want)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestManyKeys turns a message of 64,000 keys into a template value: the
// key order was quadratic and took 14 s for it; it takes 0.3 s now (2 s
// under the race detector).
func TestManyKeys(t *testing.T) {
	const n = 64000
	var b strings.Builder
	b.WriteString(`{"role": "user", "content": "hi"`)
	for i := range n {
		fmt.Fprintf(&b, `, "k%d": %d`, i, i)
	}
	b.WriteString(`}`)
	var msg Message
	if err := json.Unmarshal([]byte(b.String()), &msg); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	v, err := msg.value()
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 6*time.Second {
		t.Fatalf("%d keys took %v", n, d)
	}
	d, ok := v.AsDict()
	if !ok || d.Len() != n+2 {
		t.Fatalf("got %v, want a dict of %d keys", v.Kind(), n+2)
	}
	if k := d.Keys(); k[0].String() != "role" || k[1].String() != "content" || k[n+1].String() != fmt.Sprintf("k%d", n-1) {
		t.Fatalf("keys out of order: %v %v ... %v", k[0], k[1], k[n+1])
	}
}
