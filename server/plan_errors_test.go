package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/server/ollama"
)

// TestPlanErrorNames sends the same bad plans through every API: each
// error names the parameter as that API does, in its param field (OpenAI
// shapes) and in its message.
func TestPlanErrorNames(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{})
	long := strings.Repeat("x", 600)
	user := func(text string) string { return `[{"role":"user","content":"` + text + `"}]` }
	schema := `{"type":"array","items":{"type":"integer"},"uniqueItems":true}`
	cases := []struct {
		name, path, body string
		param            string // the OpenAI param; "" for the APIs without one
		inMessage        string
	}{
		{"chat min_tokens", "/v1/chat/completions", `{"model":"m","messages":` + user("hi") + `,"min_tokens":5,"max_tokens":2}`,
			"min_tokens", "max_tokens (2)"},
		{"responses min_tokens", "/v1/responses", `{"model":"m","input":"hi","min_tokens":5,"max_output_tokens":2}`,
			"min_tokens", "max_output_tokens (2)"},
		{"chat context", "/v1/chat/completions", `{"model":"m","messages":` + user(long) + `}`, "messages", "context length"},
		{"responses context", "/v1/responses", `{"model":"m","input":"` + long + `"}`, "input", "context length"},
		{"messages context", "/v1/messages", `{"model":"m","max_tokens":4,"messages":` + user(long) + `}`, "", "messages: "},
		{"chat top_k", "/v1/chat/completions", `{"model":"m","messages":` + user("hi") + `,"top_k":1000}`, "top_k", "top_k must be"},
		{"messages top_k", "/v1/messages", `{"model":"m","max_tokens":4,"top_k":1000,"messages":` + user("hi") + `}`, "", "top_k must be"},
		{"ollama top_k", "/api/chat", `{"model":"m","stream":false,"options":{"top_k":1000},"messages":` + user("hi") + `}`,
			"", "options.top_k must be"},
		{"ollama temperature", "/api/chat", `{"model":"m","stream":false,"options":{"temperature":-1},"messages":` + user("hi") + `}`,
			"", "invalid options.temperature"},
		{"chat schema", "/v1/chat/completions", `{"model":"m","messages":` + user("hi") + `,"response_format":{"type":"json_schema","json_schema":{"name":"s","schema":` + schema + `}}}`,
			"response_format.json_schema.schema", "response_format 's'"},
		{"responses schema", "/v1/responses", `{"model":"m","input":"hi","text":{"format":{"type":"json_schema","name":"s","schema":` + schema + `}}}`,
			"text.format.schema", "text.format 's'"},
		{"ollama schema", "/api/chat", `{"model":"m","stream":false,"format":` + schema + `,"messages":` + user("hi") + `}`, "", "schema for format"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, b, _ := ts.do(t, http.MethodPost, c.path, c.body)
			if status != http.StatusBadRequest {
				t.Fatalf("status %d: %s", status, b)
			}
			param, msg := errorFields(t, c.path, b)
			if param != c.param || !strings.Contains(msg, c.inMessage) {
				t.Errorf("param %q, message %q; want param %q and a message with %q", param, msg, c.param, c.inMessage)
			}
		})
	}
}

// errorFields reads the param and the message of an error body in the
// shape of the API of path.
func errorFields(t *testing.T, path string, b []byte) (string, string) {
	t.Helper()
	switch {
	case strings.HasPrefix(path, "/api/"):
		var e ollama.ErrorBody
		if err := json.Unmarshal(b, &e); err != nil {
			t.Fatal(err)
		}
		return "", e.Error
	case isAnthropicPath(path):
		e := decodeAnthErr(t, b)
		return "", e.Error.Message
	}
	e := decodeErr(t, b)
	if e.Error.Param == nil {
		return "", e.Error.Message
	}
	return *e.Error.Param, e.Error.Message
}

// TestOllamaTopPZero checks that Ollama's top_p 0 asks for the most
// probable token, as it does on the other APIs, instead of a 400.
func TestOllamaTopPZero(t *testing.T) {
	ts, f := startFake(t, "ok", Options{})
	var r ollama.ChatResponse
	ts.post(t, "/api/chat", `{"model":"m","stream":false,"options":{"top_p":0,"temperature":0.8},"messages":[{"role":"user","content":"hi"}]}`,
		http.StatusOK, &r)
	if p := f.lastReq.Params; p.Temperature != 0 || p.TopP != 1 || r.Message.Content != "ok" {
		t.Errorf("params %+v, answer %q", p, r.Message.Content)
	}
}
