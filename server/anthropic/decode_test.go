package anthropic

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	const user = `"messages":[{"role":"user","content":"hi"}]`
	cases := []struct {
		name, body string
		count      bool
		err        string // "" when valid
	}{
		{"minimal", `{"model":"m","max_tokens":8,` + user + `}`, false, ""},
		{"count needs no max_tokens", `{"model":"m",` + user + `}`, true, ""},
		{"no max_tokens", `{"model":"m",` + user + `}`, false, "max_tokens: Field required"},
		{"no model", `{"max_tokens":8,` + user + `}`, false, "model: Field required"},
		{"no messages", `{"model":"m","max_tokens":8,"messages":[]}`, false, "messages: at least one"},
		{"not JSON", `{"model":`, false, "not valid JSON"},
		{"wrong type", `{"model":"m","max_tokens":"8",` + user + `}`, false, "max_tokens: expected a number"},
		{"bad content", `{"model":"m","max_tokens":8,"messages":[{"role":"user","content":5}]}`, false, "content: must be a string or an array"},
		{"system role", `{"model":"m","max_tokens":8,"messages":[{"role":"system","content":"x"}]}`, false, "top-level system parameter"},
		{"system blocks", `{"model":"m","max_tokens":8,"system":[{"type":"text","text":"be brief"}],` + user + `}`, false, ""},
		{"system image", `{"model":"m","max_tokens":8,"system":[{"type":"image"}],` + user + `}`, false, "system.0.type"},
		{"image", `{"model":"m","max_tokens":8,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="}}]}]}`,
			false, "messages.0.content.0.type: image blocks are not supported"},
		{"unknown block", `{"model":"m","max_tokens":8,"messages":[{"role":"user","content":[{"type":"video"}]}]}`, false, `unknown content block type "video"`},
		{"tool_use from user", `{"model":"m","max_tokens":8,"messages":[{"role":"user","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}]}`,
			false, "tool_use blocks belong to assistant"},
		{"tool_use input not object", `{"model":"m","max_tokens":8,"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":"x"}]}]}`,
			false, "messages.0.content.0.input: must be an object"},
		{"tool_result", `{"model":"m","max_tokens":8,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"7"}],"is_error":true}]}]}`,
			false, ""},
		{"tool_result without id", `{"model":"m","max_tokens":8,"messages":[{"role":"user","content":[{"type":"tool_result","content":"7"}]}]}`,
			false, "tool_use_id: Field required"},
		{"temperature", `{"model":"m","max_tokens":8,"temperature":1.5,` + user + `}`, false, "temperature: must be between 0 and 1"},
		{"top_p", `{"model":"m","max_tokens":8,"top_p":-1,` + user + `}`, false, "top_p"},
		{"top_k", `{"model":"m","max_tokens":8,"top_k":-1,` + user + `}`, false, "top_k"},
		{"empty stop", `{"model":"m","max_tokens":8,"stop_sequences":[""],` + user + `}`, false, "stop_sequences.0"},
		{"tools", `{"model":"m","max_tokens":8,"tools":[{"name":"f","input_schema":{"type":"object"}}],"tool_choice":{"type":"tool","name":"f"},` + user + `}`, false, ""},
		{"server tool", `{"model":"m","max_tokens":8,"tools":[{"type":"web_search_20250305","name":"web_search"}],` + user + `}`, false, "server tool"},
		{"tool twice", `{"model":"m","max_tokens":8,"tools":[{"name":"f","input_schema":{}},{"name":"f","input_schema":{}}],` + user + `}`, false, "declared twice"},
		{"no schema", `{"model":"m","max_tokens":8,"tools":[{"name":"f"}],` + user + `}`, false, "input_schema"},
		{"choice names no tool", `{"model":"m","max_tokens":8,"tools":[{"name":"f","input_schema":{}}],"tool_choice":{"type":"tool","name":"g"},` + user + `}`, false, `no tool named "g"`},
		{"any without tools", `{"model":"m","max_tokens":8,"tool_choice":{"type":"any"},` + user + `}`, false, "needs tools"},
		{"bad choice", `{"model":"m","max_tokens":8,"tool_choice":{"type":"required"},` + user + `}`, false, "tool_choice.type"},
		{"thinking", `{"model":"m","max_tokens":2048,"thinking":{"type":"enabled","budget_tokens":1024},` + user + `}`, false, ""},
		{"thinking over budget", `{"model":"m","max_tokens":100,"thinking":{"type":"enabled","budget_tokens":1024},` + user + `}`, false, "less than max_tokens"},
		{"thinking without budget", `{"model":"m","max_tokens":100,"thinking":{"type":"enabled"},` + user + `}`, false, "budget_tokens: Field required"},
		{"thinking disabled", `{"model":"m","max_tokens":100,"thinking":{"type":"disabled"},` + user + `}`, false, ""},
		{"thinking block from user", `{"model":"m","max_tokens":8,"messages":[{"role":"user","content":[{"type":"thinking","thinking":"x"}]}]}`, false, "thinking blocks belong"},
		{"unknown fields pass", `{"model":"m","max_tokens":8,"service_tier":"auto","metadata":{"user_id":"u"},` + user + `}`, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.body), c.count)
			switch {
			case c.err == "" && err != nil:
				t.Fatalf("error %v", err)
			case c.err != "" && err == nil:
				t.Fatalf("no error, want one containing %q", c.err)
			case err != nil && (err.Status != 400 || err.Type != TypeInvalidRequest || !strings.Contains(err.Message, c.err)):
				t.Fatalf("error %d %s %q, want a 400 invalid_request_error containing %q", err.Status, err.Type, err.Message, c.err)
			}
		})
	}
}

func TestContentString(t *testing.T) {
	r, err := Parse([]byte(`{"model":"m","max_tokens":8,"system":"sys","messages":[{"role":"user","content":"hi"}]}`), false)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.System.Text(); got != "sys" {
		t.Errorf("system %q", got)
	}
	if got := r.Messages[0].Content; len(got) != 1 || got[0].Type != BlockText || got[0].Text != "hi" {
		t.Errorf("content %+v, want one text block", got)
	}
}

func TestErrorBody(t *testing.T) {
	e := &Error{Status: 404, Type: TypeOf(404), Message: "no such model"}
	want := `{"type":"error","error":{"type":"not_found_error","message":"no such model"}}`
	if got := string(e.Body()); got != want {
		t.Errorf("body %s, want %s", got, want)
	}
	for status, typ := range map[int]string{400: TypeInvalidRequest, 401: TypeAuthentication, 429: TypeRateLimit, 500: TypeAPI, 503: TypeOverloaded, 413: TypeTooLarge} {
		if got := TypeOf(status); got != typ {
			t.Errorf("TypeOf(%d) = %s, want %s", status, got, typ)
		}
	}
}
