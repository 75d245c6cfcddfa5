package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/server/ollama"
	"github.com/mlxrun/mlx/server/toolparse"
)

// ndjson splits a body of newline-delimited objects.
func ndjson[T any](t *testing.T, body []byte) []T {
	t.Helper()
	var out []T
	for _, line := range bytes.Split(bytes.TrimSpace(body), []byte("\n")) {
		var v T
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		out = append(out, v)
	}
	return out
}

func TestOllamaChatStream(t *testing.T) {
	ts, f := startFake(t, "<think>hmm</think>Hello", Options{})
	status, body, h := ts.do(t, http.MethodPost, "/api/chat", `{"model":"m","messages":[{"role":"system","content":"be kind"},{"role":"user","content":"hi"}]}`)
	if status != http.StatusOK || h.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("status %d %s: %s", status, h.Get("Content-Type"), body)
	}
	objs := ndjson[ollama.ChatResponse](t, body)
	var content, thinking strings.Builder
	for i, o := range objs {
		if o.Model != "m" || o.CreatedAt.IsZero() || o.Done != (i == len(objs)-1) || o.Message.Role != "assistant" {
			t.Errorf("object %d: %+v", i, o)
		}
		content.WriteString(o.Message.Content)
		thinking.WriteString(o.Message.Thinking)
	}
	if content.String() != "Hello" || thinking.String() != "hmm" {
		t.Errorf("content %q thinking %q", content.String(), thinking.String())
	}
	last := objs[len(objs)-1]
	prompt := len(f.lastReq.Prompt)
	if last.DoneReason != "stop" || last.EvalCount != len("<think>hmm</think>Hello")+1 || last.PromptEvalCount != prompt || last.TotalDuration <= 0 {
		t.Errorf("last object %+v (prompt %d tokens)", last, prompt)
	}
	if len(f.lastMsgs) != 2 || f.lastMsgs[0].Content != "be kind" || !f.lastOpt.AddGenerationPrompt {
		t.Errorf("template got %+v %+v", f.lastMsgs, f.lastOpt)
	}
}

func TestOllamaChatNoStream(t *testing.T) {
	ts, f := startFake(t, "abcdef", Options{})
	var r ollama.ChatResponse
	ts.post(t, "/api/chat", `{"model":"m","stream":false,"messages":[{"role":"user","content":"hi"}],
		"options":{"num_predict":3,"temperature":0.25,"top_k":5,"top_p":0.5,"min_p":0.1,"repeat_penalty":1.2,"seed":9,"stop":["z"]}}`, http.StatusOK, &r)
	if !r.Done || r.DoneReason != "length" || len(r.Message.Content) != 3 || r.EvalCount != 3 {
		t.Errorf("got %+v", r)
	}
	p := f.lastReq.Params
	if p.MaxTokens != 3 || p.Temperature != 0.25 || p.TopK != 5 || p.TopP != 0.5 || p.MinP != 0.1 || p.RepetitionPenalty != 1.2 ||
		*p.Seed != 9 || p.Stop[0] != "z" {
		t.Errorf("params %+v", p)
	}
}

func TestOllamaChatTools(t *testing.T) {
	ts, f := startFake(t, "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>", Options{})
	f.format = string(toolparse.FormatHermes)
	tools := `"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}]`
	var r ollama.ChatResponse
	ts.post(t, "/api/chat", `{"model":"m","stream":false,"messages":[{"role":"user","content":"weather?"},
		{"role":"assistant","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Rome"}}}]},
		{"role":"tool","tool_name":"get_weather","content":"sunny"}],`+tools+`}`, http.StatusOK, &r)
	if len(r.Message.ToolCalls) != 1 || r.Message.ToolCalls[0].Function.Name != "get_weather" ||
		r.Message.ToolCalls[0].Function.Arguments["city"] != "Paris" || r.Message.Content != "" {
		t.Fatalf("got %+v", r.Message)
	}
	if len(f.lastOpt.Tools) != 1 || string(f.lastMsgs[1].ToolCalls[0].Function.Arguments) != `{"city":"Rome"}` || f.lastMsgs[2].Name != "get_weather" {
		t.Errorf("template got %+v %+v", f.lastMsgs, f.lastOpt.Tools)
	}
}

func TestOllamaFormatAndThink(t *testing.T) {
	ts, f := startFake(t, "{}", Options{})
	for _, tc := range []struct {
		body        string
		constrained bool
		thinking    any
	}{
		{`"format":"json"`, true, false},
		{`"format":{"type":"object","properties":{"a":{"type":"integer"}}}`, true, false},
		{`"think":true`, false, true},
		{`"think":false`, false, false},
		{`"think":true,"format":"json"`, true, true},
		{`"format":""`, false, nil},
	} {
		ts.post(t, "/api/chat", `{"model":"m","stream":false,"messages":[{"role":"user","content":"hi"}],`+tc.body+`}`, http.StatusOK, nil)
		if (f.lastReq.Constraint != nil) != tc.constrained || f.lastOpt.Kwargs["enable_thinking"] != tc.thinking {
			t.Errorf("%s: constrained %v, enable_thinking %v", tc.body, f.lastReq.Constraint != nil, f.lastOpt.Kwargs["enable_thinking"])
		}
	}
}

func TestOllamaGenerate(t *testing.T) {
	ts, f := startFake(t, "Hi there", Options{})
	status, body, _ := ts.do(t, http.MethodPost, "/api/generate", `{"model":"m","prompt":"hello","system":"sys"}`)
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, body)
	}
	var text strings.Builder
	objs := ndjson[ollama.GenerateResponse](t, body)
	for _, o := range objs {
		text.WriteString(o.Response)
	}
	if text.String() != "Hi there" || !objs[len(objs)-1].Done || f.lastMsgs[0].Role != "system" || f.lastMsgs[1].Content != "hello" {
		t.Errorf("got %q %+v, template got %+v", text.String(), objs[len(objs)-1], f.lastMsgs)
	}
	var r ollama.GenerateResponse
	ts.post(t, "/api/generate", `{"model":"m","prompt":"RAW","raw":true,"stream":false}`, http.StatusOK, &r)
	if r.Response != "Hi there" || f.Detokenize(f.lastReq.Prompt, true) != "RAW" {
		t.Errorf("raw: got %+v, prompt %q", r, f.Detokenize(f.lastReq.Prompt, true))
	}
	ts.post(t, "/api/generate", `{"model":"m"}`, http.StatusOK, &r)
	if !r.Done || r.DoneReason != "load" {
		t.Errorf("load: got %+v", r)
	}
}

func TestOllamaErrors(t *testing.T) {
	ts, f := startFake(t, "abc", Options{})
	f.ctxLen = 24
	for _, tc := range []struct {
		path, body string
		status     int
		msg        string
	}{
		{"/api/chat", `{"model":"nope","messages":[{"role":"user","content":"hi"}]}`, 404, `model "nope" not found, try pulling it first`},
		{"/api/generate", `{"model":"nope","prompt":"x"}`, 404, `model "nope" not found, try pulling it first`},
		{"/api/chat", `{"model":"m","messages":[{"role":"user","content":"hi","images":["aGk="]}]}`, 400, "images are not supported"},
		{"/api/chat", `{"messages":[]}`, 400, "model is required"},
		{"/api/chat", `{"model":"m","messages":[{"role":"user","content":"a long message that cannot fit"}]}`, 400, "context"},
		{"/api/chat", `{"model":"m","messages":[{"role":"user","content":"hi"}],"options":{"temperature":-1}}`, 400, "temperature"},
		{"/api/chat", `{"model":"m","messages":[{"role":"user","content":"hi"}],"format":{"type":"nonsense"}}`, 400, "schema"},
		{"/api/chat", `{"model":"m","messages":[{"role":"user","content":"FAIL_TEMPLATE"}]}`, 400, "chat template"},
	} {
		status, body, _ := ts.do(t, http.MethodPost, tc.path, tc.body)
		var e ollama.ErrorBody
		if err := json.Unmarshal(body, &e); err != nil || status != tc.status || !strings.Contains(e.Error, tc.msg) {
			t.Errorf("%s %s: %d %s, want %d with %q", tc.path, tc.body, status, body, tc.status, tc.msg)
		}
	}
}

func TestOllamaStreamError(t *testing.T) {
	ts, f := startFake(t, "abcdef", Options{})
	f.midErr, f.midAt = errBusyForTest, 2
	status, body, _ := ts.do(t, http.MethodPost, "/api/chat", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	lines := bytes.Split(bytes.TrimSpace(body), []byte("\n"))
	var e ollama.ErrorBody
	if status != http.StatusOK || json.Unmarshal(lines[len(lines)-1], &e) != nil || e.Error == "" {
		t.Errorf("status %d, body %s: want the objects, then an error object", status, body)
	}
}

// TestOllamaRouting checks what Ollama's clients get outside a handler:
// errors in Ollama's shape, and any Content-Type taken, as Ollama takes
// curl -d's form type.
func TestOllamaRouting(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{APIKey: "k"})
	auth := []string{"Authorization", "Bearer k"}
	for _, tc := range []struct {
		method, path string
		header       []string
		status       int
		msg          string
	}{
		{http.MethodGet, "/api/nothing", auth, 404, "Invalid URL"},
		{http.MethodGet, "/api/chat", auth, 405, "use POST"},
		{http.MethodPost, "/api/chat", nil, 401, "API key"},
	} {
		status, b, _ := ts.do(t, tc.method, tc.path, "", tc.header...)
		var e ollama.ErrorBody
		if json.Unmarshal(b, &e) != nil || status != tc.status || !strings.Contains(e.Error, tc.msg) {
			t.Errorf("%s %s: %d %s, want %d with %q", tc.method, tc.path, status, b, tc.status, tc.msg)
		}
	}
	status, b, _ := ts.do(t, http.MethodPost, "/api/chat", `{"model":"m","stream":false,"messages":[{"role":"user","content":"hi"}]}`,
		"Authorization", "Bearer k", "Content-Type", "application/x-www-form-urlencoded")
	if status != http.StatusOK || !strings.Contains(string(b), `"done":true`) {
		t.Errorf("form Content-Type: %d %s", status, b)
	}
}
