package toolparse

import (
	"reflect"
	"testing"
)

// run feeds pieces and flushes, and merges every delta.
func run(o Options, pieces ...string) Delta {
	p := New(o)
	var all Delta
	merge := func(d Delta) {
		all.Content += d.Content
		all.Reasoning += d.Reasoning
		all.Calls = append(all.Calls, d.Calls...)
	}
	for _, s := range pieces {
		merge(p.Feed(s))
	}
	merge(p.Flush())
	return all
}

var (
	hermes    = Options{Format: FormatHermes, Reasoning: true}
	llama     = Options{Format: FormatLlama3}
	mistral   = Options{Format: FormatMistral}
	thinking  = Options{Format: FormatHermes, Reasoning: true, InReasoning: true}
	plainOnly = Options{}
)

var cases = []struct {
	name string
	opt  Options
	in   string
	want Delta
}{
	{"plain text", plainOnly, "Hello, world! <tool_call> stays", Delta{Content: "Hello, world! <tool_call> stays"}},
	{"plain keeps think when off", plainOnly, "<think>x</think>y", Delta{Content: "<think>x</think>y"}},
	{"hermes text", hermes, "Just an answer.", Delta{Content: "Just an answer."}},
	{"hermes one call", hermes, "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>",
		Delta{Calls: []Call{{"get_weather", `{"city":"Paris"}`}}}},
	{"hermes text then two calls", hermes, "Let me check.\n<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call>\n<tool_call>{\"name\":\"b\",\"arguments\":\"{\\\"x\\\":1}\"}</tool_call>",
		Delta{Content: "Let me check.\n", Calls: []Call{{"a", "{}"}, {"b", `{"x":1}`}}}},
	{"hermes unterminated call", hermes, "<tool_call>{\"name\":\"a\",\"arguments\":{\"q\":[1,2]}}",
		Delta{Calls: []Call{{"a", `{"q":[1,2]}`}}}},
	{"hermes bad json is content", hermes, "<tool_call>not json</tool_call>after",
		Delta{Content: "<tool_call>not json</tool_call>after"}},
	{"hermes partial marker at end", hermes, "a <tool_ca", Delta{Content: "a <tool_ca"}},
	{"reasoning then answer", hermes, "<think>\nI think.\n</think>\n\nThe answer.",
		Delta{Reasoning: "I think.", Content: "The answer."}},
	{"reasoning keeps inner line ends", hermes, "<think>\nOne.\n\nTwo. \n</think>Done.",
		Delta{Reasoning: "One.\n\nTwo.", Content: "Done."}},
	{"reasoning then call", hermes, "<think>plan</think><tool_call>{\"name\":\"f\"}</tool_call>",
		Delta{Reasoning: "plan", Calls: []Call{{"f", "{}"}}}},
	{"prompt opened think", thinking, "still thinking</think>done", Delta{Reasoning: "still thinking", Content: "done"}},
	{"unterminated reasoning", thinking, "thinking forever", Delta{Reasoning: "thinking forever"}},
	{"think only at start", hermes, "a<think>b</think>", Delta{Content: "a<think>b</think>"}},
	{"partial think is text", hermes, "<thi", Delta{Content: "<thi"}},
	{"llama json call", llama, " {\"name\": \"f\", \"parameters\": {\"a\": 1}}", Delta{Calls: []Call{{"f", `{"a":1}`}}}},
	{"llama two calls", llama, "{\"name\":\"f\",\"parameters\":{}}; {\"name\":\"g\",\"parameters\":{\"b\":2}}",
		Delta{Calls: []Call{{"f", "{}"}, {"g", `{"b":2}`}}}},
	{"llama python tag", llama, "<|python_tag|>{\"name\":\"f\",\"arguments\":{\"x\":\"y\"}}", Delta{Calls: []Call{{"f", `{"x":"y"}`}}}},
	{"llama json that is no call", llama, "{\"answer\": 42}", Delta{Content: "{\"answer\": 42}"}},
	{"llama text", llama, "Paris is the capital.", Delta{Content: "Paris is the capital."}},
	{"mistral array", mistral, "[TOOL_CALLS] [{\"name\": \"f\", \"arguments\": {\"a\": 1}}, {\"name\": \"g\", \"arguments\": {}}]",
		Delta{Calls: []Call{{"f", `{"a":1}`}, {"g", "{}"}}}},
	{"mistral args syntax", mistral, "[TOOL_CALLS]f[ARGS]{\"a\": 1}[TOOL_CALLS]g[CALL_ID]abc123456[ARGS]{}",
		Delta{Calls: []Call{{"f", `{"a":1}`}, {"g", "{}"}}}},
	{"mistral text then calls", mistral, "Sure. [TOOL_CALLS]f[ARGS]{}", Delta{Content: "Sure. ", Calls: []Call{{"f", "{}"}}}},
	{"mistral broken", mistral, "[TOOL_CALLS]oops", Delta{Content: "[TOOL_CALLS]oops"}},
	{"unicode", hermes, "héllo 世界 <tool_call>{\"name\":\"f\",\"arguments\":{\"s\":\"é\"}}</tool_call>",
		Delta{Content: "héllo 世界 ", Calls: []Call{{"f", `{"s":"é"}`}}}},
}

func TestParseWhole(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := run(c.opt, c.in); !equal(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

// TestParseEverySplit feeds every case in two pieces split at every byte,
// and byte by byte: the result must not depend on the split.
func TestParseEverySplit(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for i := 0; i <= len(c.in); i++ {
				if got := run(c.opt, c.in[:i], c.in[i:]); !equal(got, c.want) {
					t.Fatalf("split at %d: got %+v, want %+v", i, got, c.want)
				}
			}
			bytes := make([]string, len(c.in))
			for i := 0; i < len(c.in); i++ {
				bytes[i] = c.in[i : i+1]
			}
			if got := run(c.opt, bytes...); !equal(got, c.want) {
				t.Fatalf("byte by byte: got %+v, want %+v", got, c.want)
			}
		})
	}
}

// TestHoldsOnlyMarkerPrefixes checks that plain text streams at once.
func TestHoldsOnlyMarkerPrefixes(t *testing.T) {
	p := New(hermes)
	steps := []struct{ in, want string }{
		{"Hello", "Hello"},
		{" <tool", " "},
		{"s are", "<tools are"},
	}
	for _, s := range steps {
		if got := p.Feed(s.in).Content; got != s.want {
			t.Fatalf("Feed(%q) = %q, want %q", s.in, got, s.want)
		}
	}
}

func TestInReasoning(t *testing.T) {
	p := New(hermes)
	p.Feed("<think>a")
	if !p.InReasoning() {
		t.Fatal("not in reasoning after <think>")
	}
	p.Feed("</think>b")
	if p.InReasoning() {
		t.Fatal("still in reasoning after </think>")
	}
}

func TestDetect(t *testing.T) {
	cases := []struct {
		template string
		want     Format
	}{
		{"{% for tool in tools %}<tool_call>{% endfor %}", FormatHermes},
		{"[AVAILABLE_TOOLS]{{ tools }}[/AVAILABLE_TOOLS][TOOL_CALLS]", FormatMistral},
		{"<|start_header_id|>{% if tools %}<|python_tag|>{% endif %}", FormatLlama3},
		{"<|start_header_id|>{% if tools is not none %}{% endif %}", FormatLlama3},
		{"{% if tools %}custom{% endif %}", FormatHermes},
		{"<|im_start|>{{ message.content }}", FormatNone},
	}
	for _, c := range cases {
		if got := Detect(c.template); got != c.want {
			t.Errorf("Detect(%q) = %q, want %q", c.template, got, c.want)
		}
	}
}

func equal(a, b Delta) bool {
	if len(a.Calls) == 0 && len(b.Calls) == 0 {
		a.Calls, b.Calls = nil, nil
	}
	return reflect.DeepEqual(a, b)
}
