package ollama

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestDecodeChat(t *testing.T) {
	for _, tc := range []struct {
		name, body, err string
		check           func(*testing.T, *ChatRequest, Decoded)
	}{
		{name: "defaults", body: `{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
			check: func(t *testing.T, r *ChatRequest, d Decoded) {
				if !d.Stream || d.Think.Set || d.Format.JSON || d.KeepAlive != nil || len(r.Messages) != 1 {
					t.Errorf("got %+v %+v", r, d)
				}
			}},
		{name: "options", body: `{"model":"m","stream":false,"think":"high","format":"json","keep_alive":"5m",
			"options":{"num_ctx":64,"num_predict":5,"temperature":0.5,"top_k":3,"seed":7,"stop":["x"],"mirostat":1}}`,
			check: func(t *testing.T, r *ChatRequest, d Decoded) {
				o := r.Options
				if d.Stream || !d.Think.On || d.Think.Effort != "high" || !d.Format.JSON || d.Format.Schema != nil ||
					*d.KeepAlive != 5*time.Minute || *o.NumCtx != 64 || *o.NumPredict != 5 || *o.Temperature != 0.5 ||
					*o.TopK != 3 || *o.Seed != 7 || o.Stop[0] != "x" {
					t.Errorf("got %+v %+v", r, d)
				}
			}},
		{name: "schema and keep_alive seconds", body: `{"model":"m","format":{"type":"object"},"keep_alive":-1,"think":false}`,
			check: func(t *testing.T, r *ChatRequest, d Decoded) {
				if string(d.Format.Schema) != `{"type":"object"}` || *d.KeepAlive >= 0 || !d.Think.Set || d.Think.On {
					t.Errorf("got %+v", d)
				}
			}},
		{name: "tool call arguments object", body: `{"model":"m","messages":[{"role":"assistant","tool_calls":[{"function":{"name":"f","arguments":{"a":1}}}]}]}`,
			check: func(t *testing.T, r *ChatRequest, d Decoded) {
				if r.Messages[0].ToolCalls[0].Function.Arguments["a"] != 1.0 {
					t.Errorf("got %+v", r.Messages[0])
				}
			}},
		{name: "no model", body: `{"messages":[]}`, err: "model is required"},
		{name: "images", body: `{"model":"m","messages":[{"role":"user","content":"x","images":["aGk="]}]}`, err: "images are not supported"},
		{name: "role", body: `{"model":"m","messages":[{"role":"robot","content":"x"}]}`, err: "invalid role"},
		{name: "think", body: `{"model":"m","think":"max"}`, err: "invalid think"},
		{name: "format", body: `{"model":"m","format":"xml"}`, err: "invalid format"},
		{name: "format number", body: `{"model":"m","format":3}`, err: "invalid format"},
		{name: "keep_alive", body: `{"model":"m","keep_alive":"soon"}`, err: "invalid keep_alive"},
		{name: "num_ctx", body: `{"model":"m","options":{"num_ctx":0}}`, err: "num_ctx must be positive"},
		{name: "num_predict", body: `{"model":"m","options":{"num_predict":-3}}`, err: "num_predict"},
		{name: "tool name", body: `{"model":"m","tools":[{"type":"function","function":{}}]}`, err: "no name"},
		{name: "not json", body: `{"model":`, err: "invalid request body"},
		{name: "two values", body: `{"model":"m"} {}`, err: "more than one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, d, err := DecodeChat([]byte(tc.body))
			if tc.err != "" {
				var br *BadRequest
				if !errors.As(err, &br) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want a BadRequest with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, r, d)
		})
	}
}

func TestDecodeGenerate(t *testing.T) {
	for body, want := range map[string]string{
		`{"model":"m","prompt":"hi","system":"s","raw":true}`: "",
		`{"model":"m","prompt":"hi","images":["x"]}`:          "images are not supported",
		`{"model":"m","prompt":"hi","template":"x"}`:          "template is not supported",
		`{"model":"m","prompt":"hi","context":[1,2]}`:         "context is not supported",
	} {
		r, _, err := DecodeGenerate([]byte(body))
		switch {
		case want == "" && (err != nil || r.Prompt != "hi" || r.System != "s" || !r.Raw):
			t.Errorf("%s: %+v %v", body, r, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: error %v, want %q", body, err, want)
		}
	}
	if r, _, err := DecodeGenerate([]byte(`{"model":"m","prompt":"hi","suffix":"x"}`)); err != nil || r.Suffix != "x" {
		t.Errorf("suffix: %+v %v", r, err)
	}
}
