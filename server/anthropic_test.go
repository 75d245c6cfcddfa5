package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/server/toolparse"
)

// anthMessage is a decoded Anthropic message.
type anthMessage struct {
	ID           string            `json:"id"`
	Type         string            `json:"type"`
	Role         string            `json:"role"`
	Model        string            `json:"model"`
	Content      []json.RawMessage `json:"content"`
	StopReason   string            `json:"stop_reason"`
	StopSequence *string           `json:"stop_sequence"`
	Usage        map[string]int    `json:"usage"`
}

// anthBlock is a decoded content block.
type anthBlock struct {
	Type     string          `json:"type"`
	Text     string          `json:"text"`
	Thinking string          `json:"thinking"`
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
}

func (m anthMessage) blocks(t *testing.T) []anthBlock {
	t.Helper()
	out := make([]anthBlock, len(m.Content))
	for i, raw := range m.Content {
		if err := json.Unmarshal(raw, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// anthErr is a decoded Anthropic error body.
type anthErr struct {
	Type  string `json:"type"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

func decodeAnthErr(t *testing.T, b []byte) anthErr {
	t.Helper()
	var e anthErr
	if err := json.Unmarshal(b, &e); err != nil || e.Type != "error" || e.Error.Type == "" || e.Error.Message == "" {
		t.Fatalf("not an Anthropic error body (%v): %s", err, b)
	}
	return e
}

func TestMessages(t *testing.T) {
	ts, f := startFake(t, "<think>Plan.</think>Hello there", Options{})
	var m anthMessage
	ts.post(t, "/v1/messages", `{"model":"m","max_tokens":64,"system":"Be kind.","messages":[{"role":"user","content":"hi"}],`+
		`"temperature":0.5,"top_k":7,"stop_sequences":["END"],"metadata":{"user_id":"u1"}}`, http.StatusOK, &m)
	if !strings.HasPrefix(m.ID, "msg_") || m.Type != "message" || m.Role != "assistant" || m.Model != "m" {
		t.Errorf("message head %+v", m)
	}
	want := []anthBlock{{Type: "thinking", Thinking: "Plan."}, {Type: "text", Text: "Hello there"}}
	if got := m.blocks(t); !reflect.DeepEqual(got, want) {
		t.Errorf("content %+v, want %+v", got, want)
	}
	prompt := len(f.lastReq.Prompt)
	wantUsage := map[string]int{"input_tokens": prompt - 2, "output_tokens": len(f.reply) + 1, "cache_read_input_tokens": 2}
	if m.StopReason != "end_turn" || m.StopSequence != nil || !reflect.DeepEqual(m.Usage, wantUsage) {
		t.Errorf("stop %q %v, usage %v, want end_turn and %v", m.StopReason, m.StopSequence, m.Usage, wantUsage)
	}
	p := f.lastReq.Params
	if p.Temperature != 0.5 || p.TopK != 7 || p.MaxTokens != 64 || !reflect.DeepEqual(p.Stop, []string{"END"}) {
		t.Errorf("params %+v", p)
	}
	if got := f.lastMsgs; len(got) != 2 || got[0].Role != "system" || got[0].Content != "Be kind." || got[1].Content != "hi" {
		t.Errorf("template messages %+v", got)
	}
}

func TestMessagesStopReasons(t *testing.T) {
	ts, _ := startFake(t, "abcdef", Options{})
	cases := []struct {
		extra, reason string
		seq           *string
	}{
		{`"max_tokens":3`, "max_tokens", nil},
		{`"max_tokens":30,"stop_sequences":["d"]`, "stop_sequence", ptr("d")},
		{`"max_tokens":30`, "end_turn", nil},
	}
	for _, c := range cases {
		var m anthMessage
		ts.post(t, "/v1/messages", `{"model":"m",`+c.extra+`,"messages":[{"role":"user","content":"go"}]}`, http.StatusOK, &m)
		if m.StopReason != c.reason || !reflect.DeepEqual(m.StopSequence, c.seq) {
			t.Errorf("%s: stop_reason %q %v, want %q %v", c.extra, m.StopReason, m.StopSequence, c.reason, c.seq)
		}
	}
}

// TestMessagesClaudeCode sends what Claude Code sends: a query string on
// the path, beta headers, cache_control marks, and top_p 0 (greedy).
func TestMessagesClaudeCode(t *testing.T) {
	ts, f := startFake(t, "ok", Options{})
	status, body, _ := ts.do(t, http.MethodPost, "/v1/messages?beta=true", `{"model":"m","max_tokens":8,"top_p":0,`+
		`"system":[{"type":"text","text":"S","cache_control":{"type":"ephemeral"}}],"messages":[{"role":"user","content":"hi"}]}`,
		"anthropic-version", "2023-06-01", "anthropic-beta", "interleaved-thinking-2025-05-14")
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, body)
	}
	if p := f.lastReq.Params; p.Temperature != 0 || p.TopP != 1 {
		t.Errorf("top_p 0: temperature %v, top_p %v, want greedy", p.Temperature, p.TopP)
	}
}

func ptr[T any](v T) *T { return &v }

// weatherCall is the Hermes tool call of the weather tool.
const weatherCall = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": " + weatherArgs + "}\n</tool_call>"

// anthWeatherTool is the weather tool in Anthropic's shape.
const anthWeatherTool = `{"name":"get_weather","description":"Get the current weather for a city.","input_schema":` + weatherParams + `}`

func TestMessagesStream(t *testing.T) {
	f := newFake("<think>Hm.</think>\n\n" + weatherCall)
	f.id, f.format = "m", "hermes"
	ts := start(t, newFakeLoader(f), Options{})
	status, body, h := ts.do(t, http.MethodPost, "/v1/messages", `{"model":"m","max_tokens":200,"stream":true,"tools":[`+anthWeatherTool+`],`+
		`"messages":[{"role":"user","content":"weather?"}]}`, "anthropic-version", "2023-06-01")
	if status != http.StatusOK || !strings.HasPrefix(h.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("status %d %s: %s", status, h.Get("Content-Type"), body)
	}
	var names []string
	var thinking, partial string
	var stop struct {
		Delta struct {
			StopReason string `json:"stop_reason"`
		} `json:"delta"`
		Usage map[string]int `json:"usage"`
	}
	for _, fr := range parseSSE(t, body) {
		if fr.event == ":" {
			continue
		}
		var ev struct {
			Type         string          `json:"type"`
			Index        int             `json:"index"`
			ContentBlock anthBlock       `json:"content_block"`
			Delta        json.RawMessage `json:"delta"`
		}
		if err := json.Unmarshal([]byte(fr.data), &ev); err != nil || ev.Type != fr.event {
			t.Fatalf("frame %+v: type %q (%v)", fr, ev.Type, err)
		}
		name := fr.event
		switch fr.event {
		case "content_block_start":
			name += ":" + ev.ContentBlock.Type
		case "content_block_delta":
			var d struct{ Type, Thinking, PartialJSON string }
			var pj struct {
				PartialJSON string `json:"partial_json"`
			}
			_ = json.Unmarshal(ev.Delta, &d)
			_ = json.Unmarshal(ev.Delta, &pj)
			name += ":" + d.Type
			thinking += d.Thinking
			partial += pj.PartialJSON
		case "message_delta":
			_ = json.Unmarshal([]byte(fr.data), &stop)
		}
		if len(names) == 0 || names[len(names)-1] != name { // one entry for a run of deltas
			names = append(names, name)
		}
	}
	want := []string{"message_start", "ping",
		"content_block_start:thinking", "content_block_delta:thinking_delta", "content_block_stop",
		"content_block_start:tool_use", "content_block_delta:input_json_delta", "content_block_stop",
		"message_delta", "message_stop"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("events\n%v\nwant\n%v", names, want)
	}
	if thinking != "Hm." || !sameJSON(partial, weatherArgs) {
		t.Errorf("thinking %q, input %q", thinking, partial)
	}
	if stop.Delta.StopReason != "tool_use" || stop.Usage["output_tokens"] == 0 {
		t.Errorf("message_delta %+v", stop)
	}
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(a, b string) bool {
	var va, vb any
	return json.Unmarshal([]byte(a), &va) == nil && json.Unmarshal([]byte(b), &vb) == nil && reflect.DeepEqual(va, vb)
}

func TestMessagesErrors(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{APIKey: "k"})
	user := `"messages":[{"role":"user","content":"hi"}]`
	cases := []struct {
		name, method, path, body string
		header                   []string
		status                   int
		typ                      string
	}{
		{"no key", http.MethodPost, "/v1/messages", `{"model":"m","max_tokens":4,` + user + `}`, nil, 401, "authentication_error"},
		{"wrong key", http.MethodPost, "/v1/messages", `{"model":"m","max_tokens":4,` + user + `}`, []string{"x-api-key", "no"}, 401, "authentication_error"},
		{"unknown model", http.MethodPost, "/v1/messages", `{"model":"nope","max_tokens":4,` + user + `}`, []string{"x-api-key", "k"}, 404, "not_found_error"},
		{"count, unknown model", http.MethodPost, "/v1/messages/count_tokens", `{"model":"nope",` + user + `}`, []string{"x-api-key", "k"}, 404, "not_found_error"},
		{"image", http.MethodPost, "/v1/messages", `{"model":"m","max_tokens":4,"messages":[{"role":"user","content":[{"type":"image","source":{}}]}]}`,
			[]string{"x-api-key", "k"}, 400, "invalid_request_error"},
		{"top_k over vocabulary", http.MethodPost, "/v1/messages", `{"model":"m","max_tokens":4,"top_k":100000,` + user + `}`, []string{"x-api-key", "k"}, 400, "invalid_request_error"},
		{"GET", http.MethodGet, "/v1/messages", ``, []string{"x-api-key", "k"}, 405, "invalid_request_error"},
		{"unknown path", http.MethodPost, "/v1/messages/batches", `{}`, []string{"x-api-key", "k"}, 404, "not_found_error"},
		{"bearer key, no /v1", http.MethodPost, "/messages", `{"model":"nope","max_tokens":4,` + user + `}`, []string{"Authorization", "Bearer k"}, 404, "not_found_error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body, _ := ts.do(t, c.method, c.path, c.body, c.header...)
			if status != c.status {
				t.Fatalf("status %d, want %d: %s", status, c.status, body)
			}
			if e := decodeAnthErr(t, body); e.Error.Type != c.typ {
				t.Errorf("error type %q, want %q: %s", e.Error.Type, c.typ, body)
			}
		})
	}
}

func TestMessagesStreamError(t *testing.T) {
	ts, f := startFake(t, "abcdef", Options{})
	f.midErr, f.midAt = fmt.Errorf("the engine broke"), 2
	status, body, _ := ts.do(t, http.MethodPost, "/v1/messages", `{"model":"m","max_tokens":20,"stream":true,"messages":[{"role":"user","content":"go"}]}`)
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, body)
	}
	frames := parseSSE(t, body)
	last := frames[len(frames)-1]
	if last.event != "error" {
		t.Fatalf("last event %+v, want error", last)
	}
	if e := decodeAnthErr(t, []byte(last.data)); e.Error.Type != "api_error" || !strings.Contains(e.Error.Message, "the engine broke") {
		t.Errorf("error event %+v", e)
	}
}

func TestCountTokens(t *testing.T) {
	ts, f := startFake(t, "ok", Options{})
	body := `{"model":"m","system":"S","messages":[{"role":"user","content":"hello"}],"tools":[` + anthWeatherTool + `]}`
	var n struct {
		InputTokens int `json:"input_tokens"`
	}
	ts.post(t, "/v1/messages/count_tokens", body, http.StatusOK, &n)
	text, err := f.RenderChat(context.Background(), f.lastMsgs, f.lastOpt)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(f.EncodePrompt(text)); n.InputTokens != want || want == 0 {
		t.Errorf("input_tokens %d, want %d", n.InputTokens, want)
	}
	if len(f.lastOpt.Tools) != 1 {
		t.Errorf("the template got tools %v", f.lastOpt.Tools)
	}
}

func TestMessagesThinkingAndToolChoice(t *testing.T) {
	f := newFake(weatherCall)
	f.id, f.format = "m", "hermes"
	ts := start(t, newFakeLoader(f), Options{})
	q := `"messages":[{"role":"user","content":"weather?"}],"tools":[` + anthWeatherTool + `]`
	cases := []struct {
		extra    string
		thinking any // enable_thinking in the template variables; nil: unset
		forced   bool
		tools    int
	}{
		{`"thinking":{"type":"disabled"}`, false, false, 1},
		{`"thinking":{"type":"enabled","budget_tokens":100}`, true, false, 1},
		{`"tool_choice":{"type":"any"}`, false, true, 1},
		{`"tool_choice":{"type":"tool","name":"get_weather"}`, false, true, 1},
		{`"tool_choice":{"type":"none"}`, nil, false, 0},
		{`"tool_choice":{"type":"auto"}`, nil, false, 1},
	}
	for _, c := range cases {
		var m anthMessage
		ts.post(t, "/v1/messages", `{"model":"m","max_tokens":200,`+c.extra+`,`+q+`}`, http.StatusOK, &m)
		if got := f.lastOpt.Kwargs["enable_thinking"]; got != c.thinking {
			t.Errorf("%s: enable_thinking %v, want %v", c.extra, got, c.thinking)
		}
		if forced := f.lastReq.Constraint != nil; forced != c.forced {
			t.Errorf("%s: constrained %v, want %v", c.extra, forced, c.forced)
		}
		if len(f.lastOpt.Tools) != c.tools {
			t.Errorf("%s: %d tools in the template", c.extra, len(f.lastOpt.Tools))
		}
		blocks := m.blocks(t)
		if c.tools == 0 {
			if m.StopReason != "end_turn" || len(blocks) != 1 || blocks[0].Type != "text" {
				t.Errorf("%s: %s %+v, want the call as text", c.extra, m.StopReason, blocks)
			}
			continue
		}
		if m.StopReason != "tool_use" || len(blocks) != 1 || blocks[0].Name != "get_weather" || !strings.HasPrefix(blocks[0].ID, "toolu_") ||
			!sameJSON(string(blocks[0].Input), weatherArgs) {
			t.Errorf("%s: %s %+v, want one get_weather call", c.extra, m.StopReason, blocks)
		}
	}
}

// TestMessagesToolRoundTrip sends a tool_use → tool_result conversation
// through real chat templates: it renders the prompt of the same
// conversation as a chat completion. The first Gemma 4 template reads the
// results from the calling message's tool_responses.
func TestMessagesToolRoundTrip(t *testing.T) {
	for _, c := range []struct {
		fixture  templateFixture
		format   string
		toolResp bool
	}{
		{templateFixtureByID(t, "tokenizer_config-qwen3"), "hermes", false},
		{templateFixtureByID(t, "meta-llama-Llama-3.1-8B-Instruct"), "llama3", false},
		{modelTemplate(t, "google-gemma-4-31B-it-interleaved"), string(toolparse.FormatGemma4), true},
	} {
		t.Run(c.fixture.id, func(t *testing.T) {
			tm := newTemplateModel(t, c.fixture, "ok", c.format)
			tm.toolResp = c.toolResp
			ts := startModels(t, modelLoader{"m": tm})
			ts.post(t, "/v1/chat/completions", roundTripChat("m", `""`, "toolu_01", weatherArgs), http.StatusOK, nil)
			want := tm.lastPrompt()
			q, _ := json.Marshal(weatherQuestion)
			res, _ := json.Marshal(weatherResult)
			var m anthMessage
			ts.post(t, "/v1/messages", `{"model":"m","max_tokens":4,"tools":[`+anthWeatherTool+`],"messages":[`+
				`{"role":"user","content":`+string(q)+`},`+
				`{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01","name":"get_weather","input":`+weatherArgs+`}]},`+
				`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":[{"type":"text","text":`+string(res)+`}]}]}]}`,
				http.StatusOK, &m)
			if got := tm.lastPrompt(); got != want {
				t.Errorf("prompt\n%q\nwant\n%q", got, want)
			}
			if m.StopReason != "end_turn" {
				t.Errorf("stop_reason %q", m.StopReason)
			}
		})
	}
}
