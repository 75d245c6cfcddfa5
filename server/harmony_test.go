package server

import (
	"strings"
	"testing"
)

// harmonyReply is a gpt-oss answer in the Harmony format: reasoning, a
// preamble for the user, and a tool call.
const harmonyReply = "<|channel|>analysis<|message|>Need the weather tool.<|end|>" +
	"<|start|>assistant<|channel|>commentary<|message|>Checking.<|end|>" +
	"<|start|>assistant to=functions.get_weather<|channel|>commentary <|constrain|>json<|message|>{\"city\": \"Paris\"}<|call|>"

// TestChatHarmony serves a Harmony answer: the analysis channel becomes
// reasoning_content, the commentary message content and the call to
// functions.get_weather a tool call, streamed or not; the special tokens
// that hold the channels are kept in the text, and tool_choice none still
// separates the channels.
func TestChatHarmony(t *testing.T) {
	ts, f := startFake(t, harmonyReply, Options{})
	f.format = "harmony"
	var r chatResp
	ts.post(t, "/v1/chat/completions", `{"model":"m",`+userHi+`,`+tools+`}`, 200, &r)
	msg := r.Choices[0].Message
	if msg.ReasoningContent == nil || *msg.ReasoningContent != "Need the weather tool." || msg.Content == nil || *msg.Content != "Checking." {
		t.Errorf("message %+v", msg)
	}
	if len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Function.Name != "get_weather" || msg.ToolCalls[0].Function.Arguments != `{"city":"Paris"}` ||
		*r.Choices[0].FinishReason != "tool_calls" {
		t.Errorf("tool calls %+v, finish %s", msg.ToolCalls, *r.Choices[0].FinishReason)
	}
	if !f.lastReq.KeepSpecial {
		t.Error("special tokens dropped from the text")
	}
	if r.Usage.CompletionTokensDetails.ReasoningTokens == 0 {
		t.Error("no reasoning tokens counted")
	}

	_, b, _ := ts.do(t, "POST", "/v1/chat/completions", `{"model":"m","stream":true,`+userHi+`,`+tools+`}`)
	chunks, _ := chatChunks(t, parseSSE(t, b))
	var reasoning, content strings.Builder
	var names []string
	for _, c := range chunks {
		for _, ch := range c.Choices {
			if ch.Delta.ReasoningContent != nil {
				reasoning.WriteString(*ch.Delta.ReasoningContent)
			}
			if ch.Delta.Content != nil {
				content.WriteString(*ch.Delta.Content)
			}
			for _, tc := range ch.Delta.ToolCalls {
				names = append(names, tc.Function.Name)
			}
		}
	}
	if reasoning.String() != "Need the weather tool." || content.String() != "Checking." || len(names) != 1 || names[0] != "get_weather" {
		t.Errorf("streamed reasoning %q content %q calls %v", reasoning.String(), content.String(), names)
	}

	ts.post(t, "/v1/chat/completions", `{"model":"m",`+userHi+`,`+tools+`,"tool_choice":"none"}`, 200, &r)
	if m := r.Choices[0].Message; m.ReasoningContent == nil || *m.ReasoningContent != "Need the weather tool." {
		t.Errorf("tool_choice none: message %+v", m)
	}
}

// TestHarmonyHistoryThinking checks that the reasoning of earlier
// assistant messages reaches a Harmony template as "thinking" (content
// left out beside a tool call), and that other templates get it as
// before.
func TestHarmonyHistoryThinking(t *testing.T) {
	body := `{"model":"m","messages":[{"role":"user","content":"Weather?"},` +
		`{"role":"assistant","content":"Let me check.","reasoning_content":"Need the tool.","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":"18 C"},` +
		`{"role":"assistant","content":"It is 18 C.","reasoning_content":"Easy."},{"role":"user","content":"Thanks"}],` + tools + `}`
	for _, format := range []string{"harmony", "hermes"} {
		ts, f := startFake(t, "ok", Options{})
		f.format = format
		ts.post(t, "/v1/chat/completions", body, 200, nil)
		m := f.lastMsgs
		want := []struct{ thinking, content string }{{"Need the tool.", ""}, {"Easy.", "It is 18 C."}}
		if format != "harmony" {
			want = []struct{ thinking, content string }{{"", "Let me check."}, {"", "It is 18 C."}}
		}
		for i, idx := range []int{1, 3} {
			if m[idx].Thinking != want[i].thinking || m[idx].Content != want[i].content || m[idx].ReasoningContent == "" {
				t.Errorf("%s message %d: thinking %q content %v reasoning %q", format, idx, m[idx].Thinking, m[idx].Content, m[idx].ReasoningContent)
			}
		}
	}
}

// TestResponseHarmony serves the Harmony answer through /v1/responses:
// a reasoning item, the message, and a function call, in that order.
func TestResponseHarmony(t *testing.T) {
	ts, f := startFake(t, harmonyReply, Options{})
	f.format = "harmony"
	r := ts.createResponse(t, `{"model":"m","input":"Weather?","tools":[{"type":"function","name":"get_weather","parameters":{"type":"object"}}]}`)
	var types []string
	for _, it := range r.Output {
		types = append(types, it.Type)
	}
	if len(r.Output) != 3 || types[0] != "reasoning" || types[1] != "message" || types[2] != "function_call" {
		t.Fatalf("output items %v", types)
	}
	if rs := r.Output[0]; len(rs.Content) != 1 || rs.Content[0].Text != "Need the weather tool." {
		t.Errorf("reasoning %+v", rs)
	}
	if r.OutputText != "Checking." {
		t.Errorf("output_text %q", r.OutputText)
	}
	if fc := r.Output[2]; fc.Name != "get_weather" || fc.Arguments != `{"city":"Paris"}` {
		t.Errorf("function call %+v", fc)
	}
}
