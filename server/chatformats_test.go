package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/server/ollama"
	"github.com/mlxrun/mlx/server/toolparse"
)

// modelTemplate reads a template that models/chat checks against jinja2
// (its testdata/templates/<id>.json).
func modelTemplate(t *testing.T, id string) templateFixture {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "models", "chat", "testdata", "templates", id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Template string            `json:"template"`
		Tokens   map[string]string `json:"special_tokens"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return templateFixture{id: id, src: f.Template, tok: chat.SpecialTokens{BOS: f.Tokens["bos_token"], EOS: f.Tokens["eos_token"]}}
}

// typedTools declares get_weather with a string and an integer parameter,
// the types by which Qwen3-Coder XML values become JSON.
const typedTools = `"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object",` +
	`"properties":{"location":{"type":"string"},"days":{"type":"integer"}}}}}]`

// TestChatModelFormats serves answers in the Gemma 4 and Qwen3.5 formats
// with the models' real templates, streamed (one byte per token) and not:
// the format is detected from the template, the reasoning becomes
// reasoning_content (Qwen3.5's prompt opens <think> itself), the calls
// tool_calls with JSON arguments, and the text between them content.
func TestChatModelFormats(t *testing.T) {
	cases := []struct {
		template                        string
		format                          toolparse.Format
		reply, reasoning, content, args string
		keepSpecial                     bool
	}{
		{"google-gemma-4-31B-it", toolparse.FormatGemma4, "<|channel>thought\nNeed the weather.<channel|>Checking.\n" +
			`<|tool_call>call:get_weather{days:2,location:<|"|>Paris<|"|>}<tool_call|><|tool_response>`,
			"Need the weather.", "Checking.\n", `{"days":2,"location":"Paris"}`, true},
		{"Qwen3.5-4B", toolparse.FormatQwenXML, "Need the weather.\n</think>\n\nChecking.\n\n<tool_call>\n<function=get_weather>\n" +
			"<parameter=location>\nParis\n</parameter>\n<parameter=days>\n2\n</parameter>\n</function>\n</tool_call>",
			"Need the weather.", "Checking.\n\n", `{"location":"Paris","days":2}`, false},
	}
	for _, c := range cases {
		t.Run(c.template, func(t *testing.T) {
			fx := modelTemplate(t, c.template)
			if got := toolparse.Detect(fx.src); got != c.format {
				t.Fatalf("detected format %q, want %q", got, c.format)
			}
			m := newTemplateModel(t, fx, c.reply, string(c.format))
			ts := startModels(t, modelLoader{c.template: m})
			f := m.fakeModel
			body := `{"model":"` + c.template + `",` + userHi + `,` + typedTools
			var r chatResp
			ts.post(t, "/v1/chat/completions", body+`}`, 200, &r)
			msg := r.Choices[0].Message
			if deref(msg.ReasoningContent) != c.reasoning || deref(msg.Content) != c.content {
				t.Errorf("reasoning %q content %q, want %q %q", deref(msg.ReasoningContent), deref(msg.Content), c.reasoning, c.content)
			}
			if len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Function.Name != "get_weather" || msg.ToolCalls[0].Function.Arguments != c.args ||
				*r.Choices[0].FinishReason != "tool_calls" {
				t.Errorf("tool calls %+v, finish %s", msg.ToolCalls, *r.Choices[0].FinishReason)
			}
			if f.lastReq.KeepSpecial != c.keepSpecial {
				t.Errorf("KeepSpecial %v, want %v", f.lastReq.KeepSpecial, c.keepSpecial)
			}

			_, b, _ := ts.do(t, "POST", "/v1/chat/completions", body+`,"stream":true}`)
			chunks, _ := chatChunks(t, parseSSE(t, b))
			var reasoning, content, args strings.Builder
			var names []string
			for _, ch := range chunks {
				for _, choice := range ch.Choices {
					reasoning.WriteString(deref(choice.Delta.ReasoningContent))
					content.WriteString(deref(choice.Delta.Content))
					for _, tc := range choice.Delta.ToolCalls {
						if tc.Function.Name != "" {
							names = append(names, tc.Function.Name)
						}
						args.WriteString(tc.Function.Arguments)
					}
				}
			}
			if reasoning.String() != c.reasoning || content.String() != c.content || len(names) != 1 || names[0] != "get_weather" ||
				args.String() != c.args {
				t.Errorf("streamed reasoning %q content %q calls %v %q", reasoning.String(), content.String(), names, args.String())
			}
		})
	}
}

// TestModelFormatsHistory sends a tool call and its result back, with the
// arguments as the JSON string OpenAI clients send, through the Gemma 4
// and Qwen3.5 templates: each renders the call in its own syntax with the
// arguments as values (Qwen3.5's template iterates them as a mapping) and
// the tool's result.
func TestModelFormatsHistory(t *testing.T) {
	cases := []struct{ template, call, result string }{
		{"google-gemma-4-31B-it", `<|tool_call>call:get_weather{location:<|"|>Tokyo<|"|>,unit:<|"|>fahrenheit<|"|>}<tool_call|>`,
			`<|tool_response>response:get_weather{value:<|"|>` + weatherResult + `<|"|>}<tool_response|>`},
		{"Qwen3.5-4B", "<tool_call>\n<function=get_weather>\n<parameter=location>\nTokyo\n</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>",
			"<tool_response>\n" + weatherResult + "\n</tool_response>"},
	}
	for _, c := range cases {
		t.Run(c.template, func(t *testing.T) {
			fx := modelTemplate(t, c.template)
			m := newTemplateModel(t, fx, "ok", string(toolparse.Detect(fx.src)))
			ts := startModels(t, modelLoader{c.template: m})
			status, body, _ := ts.do(t, "POST", "/v1/chat/completions", roundTripChat(c.template, "null", "a1b2c3d4e", weatherArgs))
			if status != 200 {
				t.Fatalf("%d %s", status, body)
			}
			if p := m.lastPrompt(); !strings.Contains(p, c.call) || !strings.Contains(p, c.result) {
				t.Errorf("prompt %q lacks the call %q or the result %q", p, c.call, c.result)
			}
		})
	}
}

// TestGemma4ToolResponses sends a tool round trip to the first Gemma 4
// template, which reads results from the calling message's tool_responses
// and renders tool messages as turns of a "tool" role the model does not
// know: the results reach it as tool responses. The later template reads
// tool messages itself and gets them unchanged.
func TestGemma4ToolResponses(t *testing.T) {
	old, later := modelTemplate(t, "google-gemma-4-31B-it-interleaved"), modelTemplate(t, "google-gemma-4-31B-it")
	if !toolparse.ReadsToolResponses(old.src) || toolparse.ReadsToolResponses(later.src) {
		t.Fatalf("ReadsToolResponses: %v for the first template, %v for the later one", toolparse.ReadsToolResponses(old.src),
			toolparse.ReadsToolResponses(later.src))
	}
	m := newTemplateModel(t, old, "ok", string(toolparse.FormatGemma4))
	m.toolResp = true
	ts := startModels(t, modelLoader{old.id: m})
	status, body, _ := ts.do(t, "POST", "/v1/chat/completions", roundTripChat(old.id, "null", "a1b2c3d4e", weatherArgs))
	if status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	want := `<|tool_call>call:get_weather{location:<|"|>Tokyo<|"|>,unit:<|"|>fahrenheit<|"|>}<tool_call|>` +
		`<|tool_response>response:get_weather{temperature:77}<tool_response|>`
	if p := m.lastPrompt(); !strings.Contains(p, want) || strings.Contains(p, "<|turn>tool") {
		t.Errorf("prompt %q, want the result as a tool response: %q", p, want)
	}
}

func TestInlineToolResponses(t *testing.T) {
	call := func(name string) TemplateToolCall {
		return TemplateToolCall{Type: "function", Function: TemplateFunctionCall{Name: name}}
	}
	msgs := []ChatMessage{
		{Role: "user", Content: "q"},
		{Role: "assistant", ToolCalls: []TemplateToolCall{call("a"), call("")}},
		{Role: "tool", ToolCallID: "id1", Content: `{"x": 1}`},
		{Role: "tool", ToolCallID: "id2", Content: "plain"},
		{Role: "assistant", Content: "answer"},
		{Role: "user", Content: "more"},
	}
	if got := inlineToolResponses(ModelInfo{}, msgs); len(got) != len(msgs) {
		t.Fatalf("changed for a template that reads tool messages: %+v", got)
	}
	got := inlineToolResponses(ModelInfo{ToolResponses: true}, msgs)
	if len(got) != 3 || got[1].Content != "answer" || got[2].Content != "more" {
		t.Fatalf("messages %+v", got)
	}
	r := got[1].ToolResponses
	if len(r) != 2 || r[0].Name != "a" || r[1].Name != "id2" || string(r[1].Response) != `"plain"` {
		t.Fatalf("tool responses %+v", r)
	}
	if string(r[0].Response) != `{"x": 1}` {
		t.Errorf("JSON result %s", r[0].Response)
	}
}

// TestOllamaModelFormats serves the Gemma 4 and Qwen3.5 answers through
// Ollama's /api/chat: the reasoning becomes thinking and the call a tool
// call whose arguments are typed values.
func TestOllamaModelFormats(t *testing.T) {
	cases := []struct {
		template, reply string
		keepSpecial     bool
	}{
		{"google-gemma-4-31B-it", "<|channel>thought\nNeed the weather.<channel|>" +
			`<|tool_call>call:get_weather{days:2,location:<|"|>Paris<|"|>}<tool_call|>`, true},
		{"Qwen3.5-4B", "Need the weather.\n</think>\n\n<tool_call>\n<function=get_weather>\n" +
			"<parameter=location>\nParis\n</parameter>\n<parameter=days>\n2\n</parameter>\n</function>\n</tool_call>", false},
	}
	for _, c := range cases {
		t.Run(c.template, func(t *testing.T) {
			fx := modelTemplate(t, c.template)
			m := newTemplateModel(t, fx, c.reply, string(toolparse.Detect(fx.src)))
			ts := startModels(t, modelLoader{c.template: m})
			var r ollama.ChatResponse
			ts.post(t, "/api/chat", `{"model":"`+c.template+`","stream":false,`+userHi+`,`+typedTools+`}`, 200, &r)
			calls := r.Message.ToolCalls
			if r.Message.Thinking != "Need the weather." || len(calls) != 1 || calls[0].Function.Name != "get_weather" ||
				calls[0].Function.Arguments["days"] != 2.0 || calls[0].Function.Arguments["location"] != "Paris" {
				t.Errorf("message %+v", r.Message)
			}
			if m.lastReq.KeepSpecial != c.keepSpecial {
				t.Errorf("KeepSpecial %v, want %v", m.lastReq.KeepSpecial, c.keepSpecial)
			}
		})
	}
}
