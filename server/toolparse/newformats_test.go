package toolparse

import (
	"encoding/json"
	"testing"
)

var (
	weatherSchema = map[string]json.RawMessage{"get_weather": json.RawMessage(`{"type":"object","properties":{
		"location":{"type":"string"},"days":{"type":"integer"},"scale":{"type":"number"},"hourly":{"type":"boolean"},
		"opts":{"type":"object"},"hours":{"type":["array","null"]},"code":{"type":"string"}}}`)}
	qwenXML = Options{Format: FormatQwenXML, Reasoning: true, Schemas: weatherSchema}
	qwenIn  = Options{Format: FormatQwenXML, Reasoning: true, InReasoning: true, Schemas: weatherSchema}
	gemma   = Options{Format: FormatGemma4, Reasoning: true}
	gemmaNR = Options{Format: FormatGemma4}
)

var newFormatCases = []struct {
	name string
	opt  Options
	in   string
	want Delta
}{
	{"qwen xml call", qwenXML, "<tool_call>\n<function=get_weather>\n<parameter=location>\nParis\n</parameter>\n</function>\n</tool_call>",
		Delta{Calls: []Call{{"get_weather", `{"location":"Paris"}`}}}},
	{"qwen xml types by schema", qwenXML, "<tool_call>\n<function=get_weather>\n<parameter=days>\n3\n</parameter>\n<parameter=scale>\n1.5\n</parameter>\n" +
		"<parameter=hourly>\nTrue\n</parameter>\n<parameter=opts>\n{\"a\": [1, 2]}\n</parameter>\n<parameter=hours>\n[6, 12]\n</parameter>\n" +
		"<parameter=code>\n007\n</parameter>\n<parameter=extra>\n42\n</parameter>\n</function>\n</tool_call>",
		Delta{Calls: []Call{{"get_weather", `{"days":3,"scale":1.5,"hourly":true,"opts":{"a":[1,2]},"hours":[6,12],"code":"007","extra":"42"}`}}}},
	{"qwen xml value not of its type stays text", qwenXML, "<tool_call>\n<function=get_weather>\n<parameter=days>\nthree\n</parameter>\n" +
		"<parameter=opts>\n{broken\n</parameter>\n</function>\n</tool_call>",
		Delta{Calls: []Call{{"get_weather", `{"days":"three","opts":"{broken"}`}}}},
	{"qwen xml multi-line value", qwenXML, "<tool_call>\n<function=write>\n<parameter=text>\nline one\n\nline <b>two</b>\n</parameter>\n</function>\n</tool_call>",
		Delta{Calls: []Call{{"write", `{"text":"line one\n\nline \u003cb\u003etwo\u003c/b\u003e"}`}}}},
	{"qwen xml reasoning text and two calls", qwenIn, "Paris weather.\n</think>\n\nLet me check.\n\n<tool_call>\n<function=get_weather>\n" +
		"<parameter=location>\nParis\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=noargs>\n</function>\n</tool_call>",
		Delta{Reasoning: "Paris weather.", Content: "Let me check.\n\n", Calls: []Call{{"get_weather", `{"location":"Paris"}`}, {"noargs", "{}"}}}},
	{"qwen xml cut short", qwenXML, "<tool_call>\n<function=get_weather>\n<parameter=location>\nParis\n</parameter>\n<parameter=days>\n2",
		Delta{Calls: []Call{{"get_weather", `{"location":"Paris","days":2}`}}}},
	{"qwen xml json body still read", qwenXML, "<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>", Delta{Calls: []Call{{"f", "{}"}}}},
	{"qwen xml broken is content", qwenXML, "<tool_call>\n<function>\n</tool_call>", Delta{Content: "<tool_call>\n<function>\n</tool_call>"}},
	{"gemma text", gemma, "Paris is the capital.", Delta{Content: "Paris is the capital."}},
	{"gemma thought then answer", gemma, "<|channel>thought\nThe user asks.\n<channel|>It is 18 degrees.<turn|>",
		Delta{Reasoning: "The user asks.", Content: "It is 18 degrees."}},
	{"gemma call", gemma, `<|tool_call>call:get_weather{days:2,location:<|"|>Paris, "FR"<|"|>}<tool_call|><|tool_response>`,
		Delta{Calls: []Call{{"get_weather", `{"days":2,"location":"Paris, \"FR\""}`}}}},
	{"gemma nested values", gemma, `<|tool_call>call:f{a:[1, -2.5e3,true,null],b:{<|"|>k<|"|>:<|"|>v<|"|>,c:{}},d:[]}<tool_call|>`,
		Delta{Calls: []Call{{"f", `{"a":[1,-2.5e3,true,null],"b":{"k":"v","c":{}},"d":[]}`}}}},
	{"gemma thought text and two calls", gemma, "<|channel>thought\nNeed tools.<channel|>Checking.\n" +
		`<|tool_call>call:a{}<tool_call|><|tool_call>call:b{x:<|"|>é<|"|>}<tool_call|>`,
		Delta{Reasoning: "Need tools.", Content: "Checking.\n", Calls: []Call{{"a", "{}"}, {"b", `{"x":"é"}`}}}},
	{"gemma empty thought and stray end", gemma, "<|channel>thought\n<channel|>Hi<channel|>", Delta{Content: "Hi"}},
	{"gemma json arguments", gemma, `<|tool_call>call:f{"a": "x\"y", "b": [1, {"c": null}]}<tool_call|>`,
		Delta{Calls: []Call{{"f", `{"a":"x\"y","b":[1,{"c":null}]}`}}}},
	{"gemma bad call is content", gemma, `<|tool_call>call:f{a:bare}<tool_call|>`, Delta{Content: `<|tool_call>call:f{a:bare}<tool_call|>`}},
	{"gemma unterminated call", gemma, `<|tool_call>call:f{a:1}`, Delta{Calls: []Call{{"f", `{"a":1}`}}}},
	{"gemma unterminated thought", gemma, "<|channel>thought\nhmm", Delta{Reasoning: "hmm"}},
	{"gemma reasoning off keeps channel", gemmaNR, "<|channel>thought\nx<channel|>y", Delta{Content: "<|channel>thought\nx<channel|>y"}},
}

// TestNewFormatsEverySplit parses the Qwen3-Coder XML and Gemma 4 cases
// whole, split in two at every byte, and byte by byte.
func TestNewFormatsEverySplit(t *testing.T) {
	for _, c := range newFormatCases {
		t.Run(c.name, func(t *testing.T) {
			if got := run(c.opt, c.in); !equal(got, c.want) {
				t.Fatalf("whole: got %+v, want %+v", got, c.want)
			}
			for i := 0; i <= len(c.in); i++ {
				if got := run(c.opt, c.in[:i], c.in[i:]); !equal(got, c.want) {
					t.Fatalf("split at %d: got %+v, want %+v", i, got, c.want)
				}
			}
			pieces := make([]string, len(c.in))
			for i := 0; i < len(c.in); i++ {
				pieces[i] = c.in[i : i+1]
			}
			if got := run(c.opt, pieces...); !equal(got, c.want) {
				t.Fatalf("byte by byte: got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestDetectNewFormats(t *testing.T) {
	for tpl, want := range map[string]Format{
		"{{- '<|tool_call>call:' + function['name'] + '{' -}}":                      FormatGemma4,
		"<tool_call>\n<function=example_function_name>\n<parameter=example>":        FormatQwenXML,
		"{% for tool in tools %}<tool_call>{\"name\": ...}</tool_call>{% endfor %}": FormatHermes,
	} {
		if got := Detect(tpl); got != want {
			t.Errorf("Detect(%q) = %q, want %q", tpl, got, want)
		}
	}
}

// TestGemma4DeepNesting checks that arguments nested past the bound are
// refused, not followed.
func TestGemma4DeepNesting(t *testing.T) {
	deep := "call:f{a:"
	for range maxGemma4Depth + 1 {
		deep += "["
	}
	if _, ok := parseGemma4Call(deep); ok {
		t.Fatal("parsed arguments nested past the bound")
	}
}
