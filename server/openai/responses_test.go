package openai

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestResponseRequestRejects checks that each bad field gives a 400 naming
// it, with the expected code.
func TestResponseRequestRejects(t *testing.T) {
	long := strings.Repeat("k", MaxMetadataKey+1)
	many := map[string]string{}
	for i := range MaxMetadata + 1 {
		many[string(rune('a'+i))] = "v"
	}
	tooMany, _ := json.Marshal(many)
	cases := []struct {
		name, body, param, code string
	}{
		{"not an object", `[1]`, "", CodeInvalidJSON},
		{"no model", `{"input":"hi"}`, "model", CodeMissing},
		{"model type", `{"model":3,"input":"hi"}`, "model", CodeInvalidType},
		{"no input", `{"model":"m"}`, "input", CodeMissing},
		{"input type", `{"model":"m","input":3}`, "input", CodeInvalidType},
		{"item not object", `{"model":"m","input":["hi"]}`, "input[0]", CodeInvalidType},
		{"item without type or role", `{"model":"m","input":[{"content":"x"}]}`, "input[0].type", CodeMissing},
		{"unknown item", `{"model":"m","input":[{"type":"web_search_call","id":"x"}]}`, "input[0].type", CodeUnsupported},
		{"item reference", `{"model":"m","input":[{"type":"item_reference","id":"x"}]}`, "input[0].type", CodeUnsupported},
		{"bad role", `{"model":"m","input":[{"role":"tool","content":"x"}]}`, "input[0].role", CodeInvalidValue},
		{"no content", `{"model":"m","input":[{"role":"user"}]}`, "input[0].content", CodeMissing},
		{"content type", `{"model":"m","input":[{"role":"user","content":5}]}`, "input[0].content", CodeInvalidType},
		{"image part", `{"model":"m","input":[{"role":"user","content":[{"type":"input_image","image_url":"http://x"}]}]}`, "input[0].content[0].type", CodeUnsupported},
		{"unknown part", `{"model":"m","input":[{"role":"user","content":[{"type":"video"}]}]}`, "input[0].content[0].type", CodeInvalidValue},
		{"part without text", `{"model":"m","input":[{"role":"user","content":[{"type":"input_text"}]}]}`, "input[0].content[0].text", CodeMissing},
		{"bad item status", `{"model":"m","input":[{"role":"user","content":"x","status":"done"}]}`, "input[0].status", CodeInvalidValue},
		{"duplicate ids", `{"model":"m","input":[{"id":"a","role":"user","content":"x"},{"id":"a","role":"user","content":"y"}]}`, "input[1].id", CodeInvalidValue},
		{"long id", `{"model":"m","input":[{"id":"` + strings.Repeat("i", MaxItemIDLen+1) + `","role":"user","content":"x"}]}`, "input[0].id", CodeInvalidValue},
		{"call without call_id", `{"model":"m","input":[{"type":"function_call","name":"f","arguments":"{}"}]}`, "input[0].call_id", CodeMissing},
		{"call arguments object", `{"model":"m","input":[{"type":"function_call","call_id":"c","name":"f","arguments":{}}]}`, "input[0].arguments", CodeInvalidType},
		{"call empty name", `{"model":"m","input":[{"type":"function_call","call_id":"c","name":"","arguments":"{}"}]}`, "input[0].name", CodeInvalidValue},
		{"call empty call_id", `{"model":"m","input":[{"type":"function_call","call_id":"","name":"f","arguments":"{}"}]}`, "input[0].call_id", CodeInvalidValue},
		{"output without call_id", `{"model":"m","input":[{"type":"function_call_output","output":"x"}]}`, "input[0].call_id", CodeMissing},
		{"output missing", `{"model":"m","input":[{"type":"function_call_output","call_id":"c"}]}`, "input[0].output", CodeMissing},
		{"output image", `{"model":"m","input":[{"type":"function_call_output","call_id":"c","output":[{"type":"input_image"}]}]}`, "input[0].output[0].type", CodeUnsupported},
		{"reasoning bad part", `{"model":"m","input":[{"type":"reasoning","summary":[{"type":"input_text","text":"x"}]}]}`, "input[0].summary[0].type", CodeInvalidValue},
		{"instructions type", `{"model":"m","input":"x","instructions":3}`, "instructions", CodeInvalidType},
		{"builtin tool", `{"model":"m","input":"x","tools":[{"type":"web_search"}]}`, "tools[0].type", CodeUnsupported},
		{"file search tool", `{"model":"m","input":"x","tools":[{"type":"file_search","vector_store_ids":["v"]}]}`, "tools[0].type", CodeUnsupported},
		{"chat-style tool", `{"model":"m","input":"x","tools":[{"type":"function","function":{"name":"f"}}]}`, "tools[0].name", CodeMissing},
		{"tool bad name", `{"model":"m","input":"x","tools":[{"type":"function","name":"a.b"}]}`, "tools[0].name", CodeInvalidValue},
		{"tool twice", `{"model":"m","input":"x","tools":[{"type":"function","name":"f"},{"type":"function","name":"f"}]}`, "tools[1].name", CodeInvalidValue},
		{"tool parameters", `{"model":"m","input":"x","tools":[{"type":"function","name":"f","parameters":[1]}]}`, "tools[0].parameters", CodeInvalidType},
		{"tool_choice value", `{"model":"m","input":"x","tool_choice":"any"}`, "tool_choice", CodeInvalidValue},
		{"tool_choice without tools", `{"model":"m","input":"x","tool_choice":"required"}`, "tool_choice", CodeInvalidValue},
		{"tool_choice unknown function", `{"model":"m","input":"x","tools":[{"type":"function","name":"f"}],"tool_choice":{"type":"function","name":"g"}}`, "tool_choice.name", CodeInvalidValue},
		{"tool_choice builtin", `{"model":"m","input":"x","tools":[{"type":"function","name":"f"}],"tool_choice":{"type":"file_search"}}`, "tool_choice.type", CodeUnsupported},
		{"parallel_tool_calls type", `{"model":"m","input":"x","parallel_tool_calls":"yes"}`, "parallel_tool_calls", CodeInvalidType},
		{"text format type", `{"model":"m","input":"x","text":{"format":{"type":"xml"}}}`, "text.format.type", CodeInvalidValue},
		{"text format missing type", `{"model":"m","input":"x","text":{"format":{}}}`, "text.format.type", CodeMissing},
		{"json_schema without name", `{"model":"m","input":"x","text":{"format":{"type":"json_schema","schema":{}}}}`, "text.format.name", CodeInvalidValue},
		{"json_schema without schema", `{"model":"m","input":"x","text":{"format":{"type":"json_schema","name":"s"}}}`, "text.format.schema", CodeMissing},
		{"json_schema schema type", `{"model":"m","input":"x","text":{"format":{"type":"json_schema","name":"s","schema":"x"}}}`, "text.format.schema", CodeInvalidType},
		{"verbosity", `{"model":"m","input":"x","text":{"verbosity":"loud"}}`, "text.verbosity", CodeInvalidValue},
		{"effort", `{"model":"m","input":"x","reasoning":{"effort":"max"}}`, "reasoning.effort", CodeInvalidValue},
		{"summary", `{"model":"m","input":"x","reasoning":{"summary":"long"}}`, "reasoning.summary", CodeInvalidValue},
		{"conversation and previous", `{"model":"m","input":"x","conversation":"conv_1","previous_response_id":"resp_1"}`, "previous_response_id", CodeInvalidValue},
		{"conversation type", `{"model":"m","input":"x","conversation":3}`, "conversation", CodeInvalidType},
		{"conversation empty", `{"model":"m","input":"x","conversation":{"id":""}}`, "conversation", CodeInvalidValue},
		{"store type", `{"model":"m","input":"x","store":"no"}`, "store", CodeInvalidType},
		{"stream type", `{"model":"m","input":"x","stream":1}`, "stream", CodeInvalidType},
		{"stream_options without stream", `{"model":"m","input":"x","stream_options":{}}`, "stream_options", CodeInvalidValue},
		{"max_output_tokens 0", `{"model":"m","input":"x","max_output_tokens":0}`, "max_output_tokens", CodeInvalidValue},
		{"max_output_tokens float", `{"model":"m","input":"x","max_output_tokens":1.5}`, "max_output_tokens", CodeInvalidType},
		{"max_tool_calls", `{"model":"m","input":"x","max_tool_calls":-1}`, "max_tool_calls", CodeInvalidValue},
		{"temperature", `{"model":"m","input":"x","temperature":2.5}`, "temperature", CodeInvalidValue},
		{"top_p", `{"model":"m","input":"x","top_p":-0.1}`, "top_p", CodeInvalidValue},
		{"top_logprobs", `{"model":"m","input":"x","top_logprobs":21}`, "top_logprobs", CodeInvalidValue},
		{"include", `{"model":"m","input":"x","include":["everything"]}`, "include", CodeInvalidValue},
		{"metadata entries", `{"model":"m","input":"x","metadata":` + string(tooMany) + `}`, "metadata", CodeInvalidValue},
		{"metadata key", `{"model":"m","input":"x","metadata":{"` + long + `":"v"}}`, "metadata", CodeInvalidValue},
		{"metadata value", `{"model":"m","input":"x","metadata":{"k":"` + strings.Repeat("v", MaxMetadataValue+1) + `"}}`, "metadata", CodeInvalidValue},
		{"metadata value type", `{"model":"m","input":"x","metadata":{"k":1}}`, "metadata", CodeInvalidType},
		{"user", `{"model":"m","input":"x","user":"` + strings.Repeat("u", MaxIdentifierChars+1) + `"}`, "user", CodeInvalidValue},
		{"safety_identifier type", `{"model":"m","input":"x","safety_identifier":1}`, "safety_identifier", CodeInvalidType},
		{"prompt_cache_key type", `{"model":"m","input":"x","prompt_cache_key":[]}`, "prompt_cache_key", CodeInvalidType},
		{"background", `{"model":"m","input":"x","background":true}`, "background", CodeUnsupported},
		{"prompt template", `{"model":"m","input":"x","prompt":{"id":"p"}}`, "prompt", CodeUnsupported},
		{"truncation auto", `{"model":"m","input":"x","truncation":"auto"}`, "truncation", CodeUnsupported},
		{"service_tier", `{"model":"m","input":"x","service_tier":"fast"}`, "service_tier", CodeInvalidValue},
		{"extension range", `{"model":"m","input":"x","min_p":3}`, "min_p", CodeInvalidValue},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, e := ParseResponseRequest([]byte(c.body))
			if e == nil {
				t.Fatalf("accepted %s", c.body)
			}
			if e.Status != 400 || e.Param != c.param || e.Code != c.code {
				t.Errorf("got %d param %q code %q (%s), want param %q code %q", e.Status, e.Param, e.Code, e.Message, c.param, c.code)
			}
		})
	}
}

// TestResponseRequestAccepts checks the parsed values of valid bodies.
func TestResponseRequestAccepts(t *testing.T) {
	cases := []struct {
		name, body string
		check      func(r *ResponseRequest) bool
	}{
		{"string input", `{"model":"m","input":"hi"}`, func(r *ResponseRequest) bool {
			return reflect.DeepEqual(r.Input, []Item{{Type: ItemMessage, Role: RoleUser, Content: []Part{{Type: PartInputText, Text: "hi"}}}}) && r.Stored && !r.Streamed
		}},
		{"easy assistant message", `{"model":"m","input":[{"role":"assistant","content":"ok"}]}`, func(r *ResponseRequest) bool {
			return r.Input[0].Type == ItemMessage && r.Input[0].Content[0].Type == PartOutputText
		}},
		{"parts", `{"model":"m","input":[{"type":"message","role":"developer","content":[{"type":"input_text","text":"a"},{"type":"output_text","text":"b"}]}]}`, func(r *ResponseRequest) bool {
			return Text(r.Input[0].Content) == "a\nb"
		}},
		{"call round trip", `{"model":"m","input":[{"type":"function_call","id":"fc_1","call_id":"c1","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c1","output":[{"type":"input_text","text":"42"}]}]}`, func(r *ResponseRequest) bool {
			return r.Input[0].CallID == "c1" && r.Input[0].ID == "fc_1" && r.Input[1].OutputText() == "42"
		}},
		{"reasoning accepted", `{"model":"m","input":[{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"s"}],"encrypted_content":"zz"},{"role":"user","content":"x"}]}`, func(r *ResponseRequest) bool {
			return r.Input[0].Type == ItemReasoning && r.Input[0].Summary[0].Text == "s"
		}},
		{"conversation object", `{"model":"m","conversation":{"id":"conv_1"}}`, func(r *ResponseRequest) bool { return r.Conversation == "conv_1" && r.Input == nil }},
		{"previous without input", `{"model":"m","previous_response_id":"resp_1"}`, func(r *ResponseRequest) bool { return *r.PreviousResponseID == "resp_1" }},
		{"tools and choice", `{"model":"m","input":"x","tools":[{"type":"function","name":"f","description":"d","parameters":{"type":"object"},"strict":true}],"tool_choice":{"type":"function","name":"f"}}`, func(r *ResponseRequest) bool {
			return r.ToolChoice == ToolChoice{Mode: ToolChoiceNamed, Function: "f"} && *r.Tools[0].Description == "d"
		}},
		{"auto without tools", `{"model":"m","input":"x","tool_choice":"auto"}`, func(r *ResponseRequest) bool { return r.ToolChoice.Mode == ToolChoiceAuto }},
		{"json_schema", `{"model":"m","input":"x","text":{"format":{"type":"json_schema","name":"s","schema":{"type":"object"},"strict":true}}}`, func(r *ResponseRequest) bool {
			return r.Text.FormatType() == "json_schema"
		}},
		{"logprobs by include", `{"model":"m","input":"x","include":["message.output_text.logprobs"]}`, func(r *ResponseRequest) bool { return r.Logprobs() && r.TopLogprobCount() == 0 }},
		{"logprobs by top_logprobs", `{"model":"m","input":"x","top_logprobs":2}`, func(r *ResponseRequest) bool { return r.Logprobs() && r.TopLogprobCount() == 2 }},
		{"store false, stream", `{"model":"m","input":"x","store":false,"stream":true,"stream_options":{"include_obfuscation":false}}`, func(r *ResponseRequest) bool { return !r.Stored && r.Streamed }},
		{"echoed options", `{"model":"m","input":"x","truncation":"disabled","service_tier":"flex","background":false,"user":"u","safety_identifier":"s","prompt_cache_key":"k","metadata":{"a":"b"}}`, func(r *ResponseRequest) bool {
			return *r.ServiceTier == "flex" && r.Metadata["a"] == "b"
		}},
		{"extensions", `{"model":"m","input":"x","top_k":4,"ignore_eos":true}`, func(r *ResponseRequest) bool { return *r.TopK == 4 && *r.IgnoreEOS }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, e := ParseResponseRequest([]byte(c.body))
			if e != nil {
				t.Fatalf("rejected: %v", e)
			}
			if !c.check(r) {
				t.Errorf("parsed %+v", r)
			}
		})
	}
}

func TestReasoningThinking(t *testing.T) {
	effort := func(s string) *ReasoningConfig { return &ReasoningConfig{Effort: &s} }
	cases := []struct {
		c      *ReasoningConfig
		on, ok bool
	}{
		{nil, false, false},
		{&ReasoningConfig{}, false, false},
		{effort("none"), false, true},
		{effort("minimal"), false, true},
		{effort("low"), true, true},
		{effort("high"), true, true},
	}
	for _, c := range cases {
		if on, ok := c.c.Thinking(); on != c.on || ok != c.ok {
			t.Errorf("%+v: Thinking() = %v, %v; want %v, %v", c.c, on, ok, c.on, c.ok)
		}
	}
}

// TestItemJSON checks the shape each item type is written in.
func TestItemJSON(t *testing.T) {
	cases := []struct {
		it   Item
		want string
	}{
		{Item{ID: "m", Type: ItemMessage, Role: RoleAssistant, Content: []Part{{Type: PartOutputText, Text: "t"}}},
			`{"id":"m","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"t","annotations":[],"logprobs":[]}]}`},
		{Item{ID: "f", Type: ItemFunctionCall, Status: ItemInProgress, CallID: "c", Name: "n"},
			`{"id":"f","type":"function_call","status":"in_progress","call_id":"c","name":"n","arguments":""}`},
		{Item{ID: "o", Type: ItemFunctionCallOutput, CallID: "c", Output: json.RawMessage(`"42"`)},
			`{"id":"o","type":"function_call_output","status":"completed","call_id":"c","output":"42"}`},
		{Item{ID: "r", Type: ItemReasoning},
			`{"id":"r","type":"reasoning","status":"completed","summary":[],"content":[]}`},
		{Item{ID: "u", Type: ItemMessage, Role: RoleUser, Content: []Part{{Type: PartRefusal, Text: "no"}}},
			`{"id":"u","type":"message","status":"completed","role":"user","content":[{"type":"refusal","refusal":"no"}]}`},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.it)
		if err != nil || string(b) != c.want {
			t.Errorf("got %s (%v)\nwant %s", b, err, c.want)
			continue
		}
		back, e := ParseItem(b, "x")
		if e != nil || back.Type != c.it.Type || back.ID != c.it.ID {
			t.Errorf("%s does not parse back: %+v %v", b, back, e)
		}
	}
}

func TestConversationRequest(t *testing.T) {
	items := make([]string, MaxItemsPerCall+1)
	for i := range items {
		items[i] = `{"role":"user","content":"x"}`
	}
	cases := []struct {
		name, body string
		need       int
		param      string // "" : accepted
	}{
		{"empty body", ``, 0, ""},
		{"items and metadata", `{"items":[{"role":"user","content":"x"}],"metadata":{"k":"v"}}`, 0, ""},
		{"items required", `{}`, NeedItems, "items"},
		{"metadata required", `{"items":[]}`, NeedMetadata, "metadata"},
		{"metadata null", `{"metadata":null}`, NeedMetadata, ""},
		{"too many items", `{"items":[` + strings.Join(items, ",") + `]}`, 0, "items"},
		{"bad item", `{"items":[{"role":"robot","content":"x"}]}`, 0, "items[0].role"},
		{"metadata type", `{"metadata":[]}`, 0, "metadata"},
	}
	for _, c := range cases {
		_, e := ParseConversationRequest([]byte(c.body), c.need)
		switch {
		case c.param == "" && e != nil:
			t.Errorf("%s: rejected: %v", c.name, e)
		case c.param != "" && (e == nil || e.Param != c.param):
			t.Errorf("%s: got %v, want an error about %s", c.name, e, c.param)
		}
	}
}
