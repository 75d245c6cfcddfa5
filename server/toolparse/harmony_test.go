package toolparse

import (
	"testing"
)

var (
	harmonyOpt = Options{Format: FormatHarmony, Reasoning: true}
	harmonyRaw = Options{Format: FormatHarmony}
)

// harmonyCases are gpt-oss outputs as they follow the prompt's
// "<|start|>assistant": the shapes of OpenAI's Harmony guide and of the
// outputs llama.cpp's gpt-oss tests hold, and the template's own
// renderings of assistant turns.
var harmonyCases = []struct {
	name string
	opt  Options
	in   string
	want Delta
}{
	{"final only", harmonyOpt, "<|channel|>final<|message|>Hello, world!\nWhat's up?",
		Delta{Content: "Hello, world!\nWhat's up?"}},
	{"analysis then final", harmonyOpt,
		"<|channel|>analysis<|message|>User asks: \"What is 2 + 2?\" Simple arithmetic. Provide answer.<|end|>" +
			"<|start|>assistant<|channel|>final<|message|>2 + 2 = 4.<|return|>",
		Delta{Reasoning: "User asks: \"What is 2 + 2?\" Simple arithmetic. Provide answer.", Content: "2 + 2 = 4."}},
	{"tool call, recipient after the channel", harmonyOpt,
		"<|channel|>analysis<|message|>Need to use function get_current_weather.<|end|>" +
			"<|start|>assistant<|channel|>commentary to=functions.get_current_weather <|constrain|>json<|message|>{\"location\":\"San Francisco\"}<|call|>",
		Delta{Reasoning: "Need to use function get_current_weather.", Calls: []Call{{"get_current_weather", `{"location":"San Francisco"}`}}}},
	{"tool call, recipient in the role (as the template renders it)", harmonyOpt,
		" to=functions.get_weather<|channel|>commentary json<|message|>{\"location\": \"São Paulo\", \"unit\": \"celsius\"}<|call|>",
		Delta{Calls: []Call{{"get_weather", `{"location":"São Paulo","unit":"celsius"}`}}}},
	{"multi-message answer: preamble and two calls", harmonyOpt,
		"<|channel|>analysis<|message|>Two cities: call the tool twice.<|end|>" +
			"<|start|>assistant<|channel|>commentary<|message|>Checking both cities.<|end|>" +
			"<|start|>assistant to=functions.get_weather<|channel|>commentary <|constrain|>json<|message|>{\"location\":\"Paris\"}<|call|>" +
			"<|start|>assistant to=functions.get_weather<|channel|>commentary <|constrain|>json<|message|>{\"location\":\"Berlin\"}<|call|>",
		Delta{Reasoning: "Two cities: call the tool twice.", Content: "Checking both cities.",
			Calls: []Call{{"get_weather", `{"location":"Paris"}`}, {"get_weather", `{"location":"Berlin"}`}}}},
	{"multi-message answer: two analyses and a final", harmonyOpt,
		"<|channel|>analysis<|message|>First thought.<|end|><|start|>assistant<|channel|>analysis<|message|> Second thought.<|end|>" +
			"<|start|>assistant<|channel|>final<|message|>**Answer:** 42.<|return|>",
		Delta{Reasoning: "First thought. Second thought.", Content: "**Answer:** 42."}},
	{"output cut in the analysis", harmonyOpt, "<|channel|>analysis<|message|>I'm\nthinking",
		Delta{Reasoning: "I'm\nthinking"}},
	{"output cut in a call", harmonyOpt, "<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"a\": ",
		Delta{Calls: []Call{{"f", `{"a":`}}}},
	{"call without arguments", harmonyOpt, "<|channel|>commentary to=functions.now<|message|><|call|>",
		Delta{Calls: []Call{{"now", "{}"}}}},
	{"built-in tool is dropped", harmonyOpt,
		"<|channel|>analysis<|message|>I will execute python to say hello<|end|>" +
			"<|start|>assistant to=container.exec<|channel|>commentary<|message|>python3 -c 'print(\"hello\")'",
		Delta{Reasoning: "I will execute python to say hello"}},
	{"function without a name is dropped", harmonyOpt, "<|channel|>commentary to=functions.<|message|>{}<|call|>", Delta{}},
	{"stray commentary to=assistant", harmonyOpt,
		"<|channel|>commentary to=assistant<|channel|>analysis<|message|>I'm\nthinking<|end|>" +
			"<|start|>assistant<|channel|>commentary to=assistant<|channel|>final<|message|>Hello",
		Delta{Reasoning: "I'm\nthinking", Content: "Hello"}},
	{"structured final", harmonyOpt, "<|channel|>final <|constrain|>json<|message|>{\"amount\": 123.45}",
		Delta{Content: `{"amount": 123.45}`}},
	{"reasoning kept in the content", harmonyRaw,
		"<|channel|>analysis<|message|>I'm\nthinking<|end|><|start|>assistant<|channel|>final<|message|>Hello, world!",
		Delta{Content: "<|channel|>analysis<|message|>I'm\nthinking<|end|>Hello, world!"}},
	{"no header", harmonyOpt, "Just text, <b>bold</b>.", Delta{Content: "Just text, <b>bold</b>."}},
	{"marker prefix at the end", harmonyOpt, "<|channel|>final<|message|>a <|", Delta{Content: "a <|"}},
	{"header without end marker before the next", harmonyOpt,
		"<|channel|>final<|message|>one<|start|>assistant<|channel|>final<|message|> two",
		Delta{Content: "one two"}},
	{"header never finished", harmonyOpt, "<|channel|>final<|message|>ok<|end|><|start|>assistant<|chan",
		Delta{Content: "ok"}},
	{"unicode", harmonyOpt, "<|channel|>final<|message|>héllo 世界 🎉", Delta{Content: "héllo 世界 🎉"}},
}

func TestHarmonyWhole(t *testing.T) {
	for _, c := range harmonyCases {
		t.Run(c.name, func(t *testing.T) {
			if got := run(c.opt, c.in); !equal(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

// TestHarmonyEverySplit feeds every case in two pieces split at every
// byte, in three pieces, and byte by byte.
func TestHarmonyEverySplit(t *testing.T) {
	for _, c := range harmonyCases {
		t.Run(c.name, func(t *testing.T) {
			for i := 0; i <= len(c.in); i++ {
				if got := run(c.opt, c.in[:i], c.in[i:]); !equal(got, c.want) {
					t.Fatalf("split at %d: got %+v, want %+v", i, got, c.want)
				}
				j := i + (len(c.in)-i)/2
				if got := run(c.opt, c.in[:i], c.in[i:j], c.in[j:]); !equal(got, c.want) {
					t.Fatalf("split at %d and %d: got %+v, want %+v", i, j, got, c.want)
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

// TestHarmonyStreams checks that text is given out as soon as no marker
// can begin in it, and that InReasoning follows the analysis channel.
func TestHarmonyStreams(t *testing.T) {
	p := New(harmonyOpt)
	steps := []struct {
		in                 string
		content, reasoning string
		calls              int
		inReasoning        bool
	}{
		{"<|channel|>analy", "", "", 0, false},
		{"sis<|message|>Let me", "", "Let me", 0, true},
		{" think<|", "", " think", 0, true},
		{"end|>", "", "", 0, false},
		{"<|start|>assistant<|channel|>final<|message|>The", "The", "", 0, false},
		{" answer <", " answer ", "", 0, false},
		{"b>", "<b>", "", 0, false},
		{"<|end|><|start|>assistant to=functions.f<|channel|>commentary json<|message|>{\"x\":", "", "", 0, false},
		{"1}<|call|>", "", "", 1, false},
	}
	for _, s := range steps {
		d := p.Feed(s.in)
		if d.Content != s.content || d.Reasoning != s.reasoning || len(d.Calls) != s.calls || p.InReasoning() != s.inReasoning {
			t.Fatalf("Feed(%q) = %+v, in reasoning %v; want %q %q %d calls, %v", s.in, d, p.InReasoning(), s.content, s.reasoning, s.calls, s.inReasoning)
		}
	}
	if d := p.Flush(); !d.Empty() {
		t.Fatalf("Flush = %+v", d)
	}
}

// TestHarmonyHeaderBound checks that a header that never reaches its
// <|message|> is held only up to a bound, then given out as text.
func TestHarmonyHeaderBound(t *testing.T) {
	p := New(harmonyOpt)
	long := "<|channel|>" + string(make([]byte, 2*maxHarmonyHeader))
	d := p.Feed(long)
	if d.Content != long {
		t.Fatalf("a %d-byte header gave %d bytes of content", len(long), len(d.Content))
	}
}
