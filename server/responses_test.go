package server

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

func TestResponseNonStreaming(t *testing.T) {
	ts, f := startFake(t, "Hello there", Options{})
	r := ts.createResponse(t, `{"model":"m","input":"hi","instructions":"Be brief.","max_output_tokens":50,"metadata":{"k":"v"},`+
		`"parallel_tool_calls":false,"reasoning":{"effort":"low","summary":"auto"},"temperature":0.5,"top_p":0.9,`+
		`"text":{"format":{"type":"json_schema","name":"s","schema":{"type":"object"}},"verbosity":"low"},`+
		`"tools":[{"type":"function","name":"f","description":"d"}],"tool_choice":"auto","user":"u1","safety_identifier":"s1",`+
		`"prompt_cache_key":"pk","service_tier":"flex","truncation":"disabled","top_logprobs":0}`)
	prompt := f.EncodePrompt("system: Be brief.\nuser: hi\nassistant:")
	checks := []struct {
		name      string
		got, want any
	}{
		{"object", r.Object, "response"},
		{"id", strings.HasPrefix(r.ID, "resp_"), true},
		{"status", r.Status, "completed"},
		{"completed_at", r.CompletedAt != nil && *r.CompletedAt >= r.CreatedAt, true},
		{"model", r.Model, "m"},
		{"items", len(r.Output), 1},
		{"message", r.Output[0].Type + " " + r.Output[0].Role + " " + r.Output[0].Status, "message assistant completed"},
		{"message id", strings.HasPrefix(r.Output[0].ID, "msg_"), true},
		{"part", r.Output[0].Content[0].Type, "output_text"},
		{"annotations", r.Output[0].Content[0].Annotations != nil, true},
		{"output_text", r.OutputText, f.reply},
		{"input tokens", r.Usage.InputTokens, len(prompt)},
		{"output tokens", r.Usage.OutputTokens, len(f.reply) + 1},
		{"total tokens", r.Usage.TotalTokens, len(prompt) + len(f.reply) + 1},
		{"cached", r.Usage.InputTokensDetails.CachedTokens, 2},
		{"instructions", *r.Instructions, "Be brief."},
		{"max_output_tokens", *r.MaxOutputTokens, 50},
		{"metadata", r.Metadata["k"], "v"},
		{"parallel_tool_calls", r.ParallelToolCalls, false},
		{"effort", *r.Reasoning.Effort, "low"},
		{"summary", *r.Reasoning.Summary, "auto"},
		{"store", r.Store, true},
		{"temperature", *r.Temperature, 0.5},
		{"top_p", *r.TopP, 0.9},
		{"text format", r.Text.Format.Type + " " + r.Text.Format.Name, "json_schema s"},
		{"verbosity", *r.Text.Verbosity, "low"},
		{"tool_choice", r.ToolChoice, "auto"},
		{"tools", len(r.Tools) == 1 && r.Tools[0].Name == "f" && *r.Tools[0].Description == "d", true},
		{"user", *r.User, "u1"},
		{"safety_identifier", *r.SafetyIdentifier, "s1"},
		{"prompt_cache_key", *r.PromptCacheKey, "pk"},
		{"service_tier", r.ServiceTier, "flex"},
		{"truncation", r.Truncation, "disabled"},
		{"previous_response_id", r.PreviousResponseID == nil, true},
		{"prompt sent", len(f.lastReq.Prompt), len(prompt)},
		{"template tools", len(f.lastOpt.Tools), 1},
		{"thinking on", f.lastOpt.Kwargs["enable_thinking"], true},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestResponseServerRejects checks the errors that need the model or the
// stores: an OpenAI error body with the status and param.
func TestResponseServerRejects(t *testing.T) {
	cases := []struct {
		name, body string
		status     int
		param      string
	}{
		{"unknown model", `{"model":"nope","input":"hi"}`, 404, "model"},
		{"json_object without json", `{"model":"m","input":"hi","text":{"format":{"type":"json_object"}}}`, 400, "text.format"},
		{"template fails", `{"model":"m","input":"FAIL_TEMPLATE"}`, 400, "input"},
		{"too long", `{"model":"m","input":"` + strings.Repeat("x", 600) + `"}`, 400, "input"},
		{"empty input", `{"model":"m","input":[]}`, 400, "input"},
		{"unknown previous", `{"model":"m","input":"hi","previous_response_id":"resp_nope"}`, 400, "previous_response_id"},
		{"unknown conversation", `{"model":"m","input":"hi","conversation":"conv_nope"}`, 404, "conversation"},
		{"bad field", `{"model":"m","input":"hi","temperature":9}`, 400, "temperature"},
	}
	ts, _ := startFake(t, "ok", Options{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, b, _ := ts.do(t, http.MethodPost, "/v1/responses", c.body)
			e := decodeErr(t, b)
			if status != c.status || e.Error.Param == nil || *e.Error.Param != c.param {
				t.Errorf("status %d body %s, want %d about %s", status, b, c.status, c.param)
			}
		})
	}
	ts.post(t, "/v1/responses", `{"model":"m","input":"answer in JSON","text":{"format":{"type":"json_object"}}}`, 200, nil)
}

func TestResponseNonStreamingFailure(t *testing.T) {
	ts, f := startFake(t, "abcdef", Options{})
	f.midErr, f.midAt = errors.New("the kernel broke"), 2
	status, b, h := ts.do(t, http.MethodPost, "/v1/responses", `{"model":"m","input":"hi"}`)
	if e := decodeErr(t, b); status != 500 || !strings.Contains(e.Error.Message, "the kernel broke") {
		t.Fatalf("status %d body %s", status, b)
	}
	var r testResp
	ts.getJSON(t, "/v1/responses/"+h.Get("X-Request-Id"), 200, &r)
	if r.Status != "failed" || r.Error == nil || r.OutputText != "ab" {
		t.Errorf("stored %+v", r)
	}
}

// TestResponseInputToPrompt checks the messages that input items become.
func TestResponseInputToPrompt(t *testing.T) {
	ts, f := startFake(t, "ok", Options{})
	ts.createResponse(t, `{"model":"m","instructions":"sys","input":[`+
		`{"role":"developer","content":"dev"},{"role":"user","content":[{"type":"input_text","text":"a"},{"type":"input_text","text":"b"}]},`+
		`{"type":"reasoning","summary":[{"type":"summary_text","text":"thought"}]},`+
		`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"let me look"}]},`+
		`{"type":"function_call","call_id":"c1","name":"lookup","arguments":"{\"q\":1}"},`+
		`{"type":"function_call","call_id":"c2","name":"other","arguments":"{}"},`+
		`{"type":"function_call_output","call_id":"c1","output":"42"},`+
		`{"type":"function_call_output","call_id":"c2","output":[{"type":"input_text","text":"x"}]}]}`)
	m := f.lastMsgs
	got := make([]string, len(m))
	for i, msg := range m {
		got[i] = msg.Role
		if msg.Content != "" {
			got[i] += ":" + msg.Content
		}
		for _, tc := range msg.ToolCalls {
			got[i] += " call " + tc.ID + " " + tc.Function.Name
		}
		if msg.ToolCallID != "" {
			got[i] += " for " + msg.ToolCallID + " " + msg.Name
		}
	}
	want := []string{"system:sys", "developer:dev", "user:a\nb", "assistant:let me look call c1 lookup call c2 other", "tool:42 for c1 lookup", "tool:x for c2 other"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("messages\n%q\nwant\n%q", got, want)
	}
	if args := string(m[3].ToolCalls[0].Function.Arguments); args != `{"q":1}` {
		t.Errorf("arguments %s, want the object", args)
	}
}

func TestResponseReasoningEffort(t *testing.T) {
	cases := []struct {
		extra string
		want  any
	}{
		{``, nil},
		{`,"reasoning":{"effort":"none"}`, false},
		{`,"reasoning":{"effort":"minimal"}`, false},
		{`,"reasoning":{"effort":"high"}`, true},
		{`,"reasoning":{"effort":"none"},"chat_template_kwargs":{"enable_thinking":true}`, true},
	}
	ts, f := startFake(t, "ok", Options{})
	for _, c := range cases {
		ts.createResponse(t, `{"model":"m","input":"hi"`+c.extra+`}`)
		if got := f.lastOpt.Kwargs["enable_thinking"]; got != c.want {
			t.Errorf("%s: enable_thinking %v, want %v", c.extra, got, c.want)
		}
	}
}

func TestResponseLogprobs(t *testing.T) {
	ts, _ := startFake(t, "<think>x</think>\n\nabc", Options{})
	for _, body := range []string{
		`{"model":"m","input":"hi","top_logprobs":2}`,
		`{"model":"m","input":"hi","top_logprobs":2,"stream":true}`,
	} {
		var r testResp
		if strings.Contains(body, "stream") {
			evs := ts.streamResponse(t, body)
			r = *evs[len(evs)-1].Response
			n := 0
			for _, ev := range evs {
				if ev.Type == "response.output_text.delta" {
					n += len(ev.Logprobs)
				}
			}
			if n != 3 {
				t.Errorf("the deltas carry %d logprobs, want 3", n)
			}
		} else {
			r = ts.createResponse(t, body)
		}
		lps := r.Output[1].Content[0].Logprobs
		var text strings.Builder
		for _, lp := range lps {
			text.WriteString(lp.Token)
			if len(lp.TopLogprobs) != 2 || len(lp.Bytes) == 0 {
				t.Errorf("logprob %+v", lp)
			}
		}
		if text.String() != r.OutputText {
			t.Errorf("%s: logprob tokens %q, text %q", body, text.String(), r.OutputText)
		}
	}
	r := ts.createResponse(t, `{"model":"m","input":"hi"}`)
	if lps := r.Output[1].Content[0].Logprobs; lps == nil || len(lps) != 0 {
		t.Errorf("logprobs %v, want [] when not asked", lps)
	}
}

func TestResponseToolCallCaps(t *testing.T) {
	call := func(city string) string {
		return "<tool_call>\n{\"name\": \"w\", \"arguments\": {\"city\": \"" + city + "\"}}\n</tool_call>\n"
	}
	cases := []struct {
		extra string
		want  int
	}{
		{``, 3},
		{`,"max_tool_calls":2`, 2},
		{`,"parallel_tool_calls":false`, 1},
		{`,"tool_choice":"none"`, 0},
	}
	ts, f := startFake(t, call("a")+call("b")+call("c"), Options{})
	f.format = "hermes"
	for _, c := range cases {
		r := ts.createResponse(t, `{"model":"m","input":"hi","tools":[{"type":"function","name":"w"}]`+c.extra+`}`)
		n := 0
		for _, it := range r.Output {
			if it.Type == "function_call" {
				n++
			}
		}
		if n != c.want {
			t.Errorf("%s: %d calls, want %d", c.extra, n, c.want)
		}
	}
}

func TestResponseEmptyAnswer(t *testing.T) {
	ts, _ := startFake(t, "", Options{})
	for _, body := range []string{`{"model":"m","input":"hi"}`, `{"model":"m","input":"hi","stream":true}`} {
		var r testResp
		if strings.Contains(body, "stream") {
			evs := ts.streamResponse(t, body)
			r = *evs[len(evs)-1].Response
		} else {
			r = ts.createResponse(t, body)
		}
		if len(r.Output) != 1 || r.Output[0].Type != "message" || r.OutputText != "" || r.Status != "completed" {
			t.Errorf("%s: %+v", body, r)
		}
	}
}
