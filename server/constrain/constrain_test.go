package constrain

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/runtime/grammar"
	"github.com/mlxrun/mlx/runtime/grammar/jsonschema"
	"github.com/mlxrun/mlx/server/toolparse"
)

var (
	weather = Tool{Name: "get_weather", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","maxLength":8},"days":{"type":"integer","minimum":1,"maximum":3}},"required":["city","days"],"additionalProperties":false}`)}
	clock   = Tool{Name: "now"}
)

// compile builds and parses s, failing the test on an error.
func compile(t *testing.T, s *Spec) *grammar.Grammar {
	t.Helper()
	g, err := NewCache().Grammar(s)
	if err != nil {
		t.Fatalf("%+v: %v", s, err)
	}
	return g
}

func TestBuildMatches(t *testing.T) {
	tools := []Tool{weather, clock}
	tests := []struct {
		name   string
		spec   Spec
		accept []string
		reject []string
	}{
		{"json_object", Spec{JSON: true}, []string{`{}`, `{"a": [1, {"b": null}]}`}, []string{`[]`, `{"a"}`, `<think>x</think>{}`}},
		{"schema", Spec{JSON: true, Schema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`)},
			[]string{`{"ok": true}`, `{"ok":false}`}, []string{`{}`, `{"ok": 1}`}},
		{"grammar", Spec{Grammar: "root ::= \"yes\" | \"no\" # answer\n"}, []string{"yes", "no"}, []string{"maybe", ""}},
		{"grammar with a class and bounds", Spec{Grammar: `root ::= [a-c]{1,2} x` + "\nx ::= \"!\"\n"}, []string{"ab!", "c!"}, []string{"abc!", "!"}},
		{"hermes", Spec{Calls: CallsRequired, Tools: tools, MaxCalls: 1, Syntax: toolparse.FormatHermes},
			[]string{"<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\", \"days\": 2}}\n</tool_call>", "<tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call>"},
			[]string{"{\"name\": \"now\", \"arguments\": {}}", "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {}}\n</tool_call>", "<tool_call>\n{\"name\": \"other\", \"arguments\": {}}\n</tool_call>",
				"<tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call>\n<tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call>"}},
		{"hermes parallel", Spec{Calls: CallsRequired, Tools: tools, MaxCalls: 2, Syntax: toolparse.FormatHermes},
			[]string{"<tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call>\n<tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call>"}, nil},
		{"llama3", Spec{Calls: CallsRequired, Tools: tools[:1], MaxCalls: 1, Syntax: toolparse.FormatLlama3},
			[]string{`{"name": "get_weather", "parameters": {"city": "", "days": 3}}`}, []string{`{"name": "get_weather", "arguments": {"city": "", "days": 3}}`}},
		{"mistral", Spec{Calls: CallsRequired, Tools: tools, MaxCalls: 3, Syntax: toolparse.FormatMistral},
			[]string{`[TOOL_CALLS][{"name": "now", "arguments": {}}]`, `[TOOL_CALLS][{"name": "now", "arguments": {}}, {"name": "get_weather", "arguments": {"city": "a", "days": 1}}]`},
			[]string{`[{"name": "now", "arguments": {}}]`}},
		{"answer or calls", Spec{JSON: true, Calls: CallsOptional, Tools: tools[1:], Syntax: toolparse.FormatHermes},
			[]string{`{"x": 1}`, "<tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call>"}, []string{"text"}},
		{"harmony calls after an analysis", Spec{Calls: CallsRequired, Tools: tools[1:], MaxCalls: 1, Syntax: toolparse.FormatHarmony, Think: ThinkOptional},
			[]string{"<|channel|>commentary to=functions.now <|constrain|>json<|message|>{}",
				"<|channel|>analysis<|message|>The user wants the time.<|end|><|start|>assistant<|channel|>commentary to=functions.now <|constrain|>json<|message|>{}"},
			[]string{"<think>x</think><|channel|>commentary to=functions.now <|constrain|>json<|message|>{}",
				"<|channel|>analysis<|message|>x<|end|><|start|>assistant",
				"<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{}"}},
		{"harmony json answer", Spec{JSON: true, Syntax: toolparse.FormatHarmony, Think: ThinkOptional},
			[]string{"<|channel|>final<|message|>{\"a\": 1}", "<|channel|>analysis<|message|>JSON it is.<|end|><|start|>assistant<|channel|>final<|message|>{}"},
			[]string{"{}", "<|channel|>analysis<|message|>a<b<|end|><|start|>assistant<|channel|>final<|message|>{}"}},
		{"harmony without thinking", Spec{JSON: true, Syntax: toolparse.FormatHarmony},
			[]string{"<|channel|>final<|message|>{}"}, []string{"<|channel|>analysis<|message|>x<|end|><|start|>assistant<|channel|>final<|message|>{}"}},
		{"optional thinking", Spec{JSON: true, Think: ThinkOptional}, []string{`{}`, "<think>\nhmm\n</think>\n\n{}"}, []string{"<think>a<b</think>{}", "</think>{}"}},
		{"open thinking", Spec{JSON: true, Think: ThinkOpen}, []string{"</think>{}", "\nhmm\n</think>\n\n{}"}, []string{"{}"}},
		{"thinking budget", Spec{Grammar: `root ::= "x"`, Think: ThinkOpen},
			[]string{strings.Repeat("a", ThinkBudget) + "</think>x"}, []string{strings.Repeat("a", ThinkBudget+1) + "</think>x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := compile(t, &tt.spec)
			for _, want := range []struct {
				texts []string
				ok    bool
			}{{tt.accept, true}, {tt.reject, false}} {
				for _, text := range want.texts {
					ok, err := g.Match(text)
					if err != nil || ok != want.ok {
						t.Errorf("Match(%q) = %v, %v; want %v", text, ok, err, want.ok)
					}
				}
			}
		})
	}
}

// TestCallsParseBack checks that the calls a grammar allows are the calls
// toolparse reads in every syntax.
func TestCallsParseBack(t *testing.T) {
	args := `{"city": "Oslo", "days": 1}`
	tests := []struct {
		syntax toolparse.Format
		text   string
	}{
		{toolparse.FormatHermes, "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": " + args + "}\n</tool_call>\n<tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call>"},
		{toolparse.FormatLlama3, `{"name": "get_weather", "parameters": ` + args + `}; {"name": "now", "parameters": {}}`},
		{toolparse.FormatMistral, `[TOOL_CALLS][{"name": "get_weather", "arguments": ` + args + `}, {"name": "now", "arguments": {}}]`},
		{toolparse.FormatHarmony, "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>" + args +
			"<|call|><|start|>assistant<|channel|>commentary to=functions.now <|constrain|>json<|message|>{}"},
		{toolparse.FormatGemma4, "<|tool_call>call:get_weather" + args + "<tool_call|><|tool_call>call:now{}<tool_call|>"},
		{toolparse.FormatQwenXML, "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": " + args + "}\n</tool_call>\n<tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call>"},
	}
	for _, tt := range tests {
		t.Run(string(tt.syntax), func(t *testing.T) {
			g := compile(t, &Spec{Calls: CallsRequired, Tools: []Tool{weather, clock}, MaxCalls: 2, Syntax: tt.syntax})
			if ok, err := g.Match(tt.text); !ok || err != nil {
				t.Fatalf("Match(%q) = %v, %v", tt.text, ok, err)
			}
			p := toolparse.New(toolparse.Options{Format: tt.syntax})
			d := p.Feed(tt.text)
			f := p.Flush()
			calls := append(d.Calls, f.Calls...)
			if d.Content+f.Content != "" || len(calls) != 2 || calls[0].Name != "get_weather" || calls[1].Name != "now" || calls[1].Arguments != "{}" {
				t.Fatalf("parsed %+v %+v", d, f)
			}
			var v map[string]any
			if err := json.Unmarshal([]byte(calls[0].Arguments), &v); err != nil || v["city"] != "Oslo" {
				t.Errorf("arguments %q: %v", calls[0].Arguments, err)
			}
		})
	}
}

func TestBuildErrors(t *testing.T) {
	tests := []struct {
		name string
		spec Spec
		part string // "" for ErrSpec
		tool int
		is   error
	}{
		{"gbnf syntax", Spec{Grammar: `root ::= "a`}, PartGrammar, 0, grammar.ErrSyntax},
		{"gbnf without root", Spec{Grammar: `start ::= "a"`}, PartGrammar, 0, grammar.ErrInvalid},
		{"unsupported schema", Spec{JSON: true, Schema: json.RawMessage(`{"type":"array","uniqueItems":true}`)}, PartSchema, 0, jsonschema.ErrUnsupported},
		{"not a schema", Spec{JSON: true, Schema: json.RawMessage(`{"type":"thing"}`)}, PartSchema, 0, jsonschema.ErrSchema},
		{"bad tool schema", Spec{Calls: CallsRequired, Tools: []Tool{clock, {Name: "f", Parameters: json.RawMessage(`{"type":"object","not":{}}`)}}}, PartTool, 1, jsonschema.ErrUnsupported},
		{"bad tool name", Spec{Calls: CallsRequired, Tools: []Tool{{Name: `a"b`}}}, PartTool, 0, ErrSpec},
		{"no tools", Spec{Calls: CallsRequired}, "", 0, ErrSpec},
		{"grammar and json", Spec{Grammar: `root ::= "a"`, JSON: true}, "", 0, ErrSpec},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewCache().Grammar(&tt.spec)
			if !errors.Is(err, tt.is) {
				t.Fatalf("error %v, want %v", err, tt.is)
			}
			var e *Error
			if got := errors.As(err, &e); got != (tt.part != "") || got && (e.Part != tt.part || e.Tool != tt.tool) {
				t.Errorf("error %#v, want part %q tool %d", err, tt.part, tt.tool)
			}
		})
	}
}

func TestCacheReuses(t *testing.T) {
	c := NewCache()
	a := &Spec{JSON: true, Schema: json.RawMessage(`{"type": "object", "properties": {"a": {"type": "integer"}}}`)}
	b := &Spec{JSON: true, Schema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer"}}}`)}
	g1, err1 := c.Grammar(a)
	g2, err2 := c.Grammar(b)
	if err1 != nil || err2 != nil || g1 != g2 {
		t.Fatalf("the same schema compiled twice: %p %p %v %v", g1, g2, err1, err2)
	}
	bad := &Spec{Grammar: "root ::= ("}
	_, e1 := c.Grammar(bad)
	_, e2 := c.Grammar(bad)
	if e1 == nil || e1 != e2 {
		t.Errorf("a bad grammar's error is not cached: %v %v", e1, e2)
	}
	if st := c.Stats(); st.Hits != 2 || st.Entries != 2 {
		t.Errorf("stats %+v, want 2 hits and 2 entries", st)
	}
	if g, err := c.Grammar(&Spec{Calls: CallsOptional, Tools: []Tool{clock}}); g != nil || err != nil {
		t.Errorf("optional calls alone constrain nothing, got %v %v", g, err)
	}
}

func TestPrefixRules(t *testing.T) {
	src := "root ::= a-b \"x y\\\" z\" [a-z\\]] c_1{2,3} # note q\nc_1 ::= \"c\"\n"
	want := "p-root ::= p-a-b \"x y\\\" z\" [a-z\\]] p-c_1{2,3} # note q\np-c_1 ::= \"c\"\n"
	if got := prefixRules(src, "p-"); got != want {
		t.Errorf("prefixRules:\n got %q\nwant %q", got, want)
	}
}

// TestGemma4Thought checks that a forced Gemma 4 call may follow a thought
// channel, not a <think> block, when thinking is on, and that the parser
// reads both back.
func TestGemma4Thought(t *testing.T) {
	g := compile(t, &Spec{Calls: CallsRequired, Tools: []Tool{clock}, MaxCalls: 1, Syntax: toolparse.FormatGemma4, Think: ThinkOptional})
	text := "<|channel>thought\nThe time.<channel|><|tool_call>call:now{}<tool_call|>"
	if ok, err := g.Match(text); !ok || err != nil {
		t.Fatalf("Match(%q) = %v, %v", text, ok, err)
	}
	if ok, _ := g.Match("<think>The time.</think><|tool_call>call:now{}<tool_call|>"); ok {
		t.Error("a <think> block matched")
	}
	p := toolparse.New(toolparse.Options{Format: toolparse.FormatGemma4, Reasoning: true})
	d := p.Feed(text)
	f := p.Flush()
	if d.Reasoning+f.Reasoning != "The time." || len(d.Calls)+len(f.Calls) != 1 {
		t.Errorf("parsed %+v %+v", d, f)
	}
}
