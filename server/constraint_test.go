package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/server/toolparse"
)

// TestConstraintErrors checks that schemas and grammars that cannot be
// used are 400s naming the field and the reason.
func TestConstraintErrors(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{})
	msgs := `"messages":[{"role":"user","content":"json please"}]`
	badSchema := `{"type":"array","items":{"type":"integer"},"uniqueItems":true}`
	tool := func(params string) string {
		return `"tools":[{"type":"function","function":{"name":"ok","parameters":{"type":"object"}}},{"type":"function","function":{"name":"f","parameters":` + params + `}}]`
	}
	tests := []struct {
		name, path, body string
		param, reason    string
	}{
		{"schema keyword", "/v1/chat/completions", `{"model":"m",` + msgs + `,"response_format":{"type":"json_schema","json_schema":{"name":"s","schema":` + badSchema + `}}}`,
			"response_format.json_schema.schema", "uniqueItems"},
		{"not a schema", "/v1/chat/completions", `{"model":"m",` + msgs + `,"response_format":{"type":"json_schema","json_schema":{"name":"s","schema":{"type":"thing"}}}}`,
			"response_format.json_schema.schema", "thing"},
		{"completions schema", "/v1/completions", `{"model":"m","prompt":"x","response_format":{"type":"json_schema","json_schema":{"name":"s","schema":` + badSchema + `}}}`,
			"response_format.json_schema.schema", "uniqueItems"},
		{"responses schema", "/v1/responses", `{"model":"m","input":"x","text":{"format":{"type":"json_schema","name":"s","schema":` + badSchema + `}}}`,
			"text.format.schema", "uniqueItems"},
		{"grammar syntax", "/v1/chat/completions", `{"model":"m",` + msgs + `,"grammar":"root ::= \"a"}`, "grammar", "unterminated"},
		{"grammar in nvext", "/v1/chat/completions", `{"model":"m",` + msgs + `,"nvext":{"grammar":"start ::= \"a\""}}`, "grammar", "root"},
		{"completions grammar", "/v1/completions", `{"model":"m","prompt":"x","grammar":"root ::= undefined-rule"}`, "grammar", "undefined-rule"},
		{"empty grammar", "/v1/completions", `{"model":"m","prompt":"x","grammar":""}`, "grammar", "empty"},
		{"grammar and format", "/v1/chat/completions", `{"model":"m",` + msgs + `,"grammar":"root ::= \"a\"","response_format":{"type":"json_object"}}`, "grammar", "response_format"},
		{"grammar and forced tool", "/v1/chat/completions", `{"model":"m",` + msgs + `,"grammar":"root ::= \"a\"",` + tool(`{"type":"object"}`) + `,"tool_choice":"required"}`, "grammar", "tool_choice"},
		{"forced tool schema", "/v1/chat/completions", `{"model":"m",` + msgs + `,` + tool(`{"type":"object","not":{}}`) + `,"tool_choice":"required"}`,
			"tools[1].function.parameters", "'f'"},
		{"named tool schema", "/v1/chat/completions", `{"model":"m",` + msgs + `,` + tool(`{"type":"object","patternProperties":{}}`) + `,"tool_choice":{"type":"function","function":{"name":"f"}}}`,
			"tools[1].function.parameters", "patternProperties"},
		{"responses tool schema", "/v1/responses", `{"model":"m","input":"x","tools":[{"type":"function","name":"f","parameters":{"type":"object","not":{}}}],"tool_choice":"required"}`,
			"tools[0].parameters", "'f'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, b, _ := ts.do(t, http.MethodPost, tt.path, tt.body)
			if status != http.StatusBadRequest {
				t.Fatalf("status %d, want 400: %s", status, b)
			}
			e := decodeErr(t, b)
			if e.Error.Param == nil || *e.Error.Param != tt.param || !strings.Contains(e.Error.Message, tt.reason) {
				t.Errorf("error %s, want param %q and a message with %q", b, tt.param, tt.reason)
			}
		})
	}
}

// TestConstraintReachesEngine checks which requests carry a grammar, and
// that a repeated schema is compiled once.
func TestConstraintReachesEngine(t *testing.T) {
	ts, f := startFake(t, "ok", Options{})
	f.format = string(toolparse.FormatHermes)
	schema := `{"type":"object","properties":{"a":{"type":"integer"}}}`
	tools := `"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}]`
	tests := []struct {
		name, path, body string
		constrained      bool
		thinking         any // enable_thinking the template got
	}{
		{"plain", "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`, false, nil},
		{"text format", "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"text"}}`, false, nil},
		{"tools auto", "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}],` + tools + `}`, false, nil},
		{"json object", "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"JSON"}],"response_format":{"type":"json_object"}}`, true, false},
		{"schema", "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"s","schema":` + schema + `}}}`, true, false},
		{"thinking kept", "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}],"chat_template_kwargs":{"enable_thinking":true},"response_format":{"type":"json_schema","json_schema":{"name":"s","schema":` + schema + `}}}`, true, true},
		{"forced tool", "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}],` + tools + `,"tool_choice":"required"}`, true, false},
		{"grammar", "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}],"nvext":{"grammar":"root ::= \"ok\""}}`, true, false},
		{"completions", "/v1/completions", `{"model":"m","prompt":"hi","grammar":"root ::= \"ok\""}`, true, nil},
		{"responses", "/v1/responses", `{"model":"m","input":"hi","text":{"format":{"type":"json_schema","name":"s","schema":` + schema + `}}}`, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.lastOpt = ChatOptions{}
			ts.post(t, tt.path, tt.body, http.StatusOK, nil)
			f.mu.Lock()
			defer f.mu.Unlock()
			if got := f.lastReq.Constraint != nil; got != tt.constrained {
				t.Errorf("constrained %v, want %v", got, tt.constrained)
			}
			if got := f.lastOpt.Kwargs["enable_thinking"]; got != tt.thinking {
				t.Errorf("enable_thinking %v, want %v", got, tt.thinking)
			}
		})
	}
	if st := ts.grammars.Stats(); st.Hits < 2 || st.Entries != 5 {
		t.Errorf("grammar cache %+v: want the schema compiled once and hit again", st)
	}
}
