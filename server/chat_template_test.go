package server

import (
	"net/http"
	"strings"
	"testing"
)

// TestRequestChatTemplate checks that a chat_template given with a
// request (at the top level, or in nvext under the top level) replaces
// the model's for chat completions and responses, and that a template
// that cannot render is a 400 that names chat_template. The server
// ignored it before.
func TestRequestChatTemplate(t *testing.T) {
	tm := newTemplateModel(t, templateFixtureByID(t, "tokenizer_config-qwen3"), "ok", "")
	ts := startModels(t, modelLoader{"m": tm})
	const tpl = `"{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}{{ eos_token }}"`
	const other = `"{{ messages|length }}"`
	const msgs = `"messages":[{"role":"system","content":"be brief"},{"role":"user","content":"hi"}]`
	const want = "<system>be brief<user>hi<|im_end|>"
	cases := []struct{ name, path, body string }{
		{"top level", "/v1/chat/completions", `{"model":"m",` + msgs + `,"chat_template":` + tpl + `}`},
		{"nvext", "/v1/chat/completions", `{"model":"m",` + msgs + `,"nvext":{"chat_template":` + tpl + `}}`},
		{"top level over nvext", "/v1/chat/completions", `{"model":"m",` + msgs + `,"chat_template":` + tpl + `,"nvext":{"chat_template":` + other + `}}`},
		{"responses", "/v1/responses", `{"model":"m","instructions":"be brief","input":"hi","chat_template":` + tpl + `}`},
	}
	for _, c := range cases {
		ts.post(t, c.path, c.body, http.StatusOK, nil)
		if got := tm.lastPrompt(); got != want {
			t.Errorf("%s: prompt %q, want %q", c.name, got, want)
		}
	}
	ts.post(t, "/v1/chat/completions", `{"model":"m",`+msgs+`}`, http.StatusOK, nil)
	if got := tm.lastPrompt(); !strings.Contains(got, "<|im_start|>user\nhi<|im_end|>") {
		t.Errorf("without chat_template: prompt %q, want the model's template", got)
	}

	bad := []struct{ name, path, body, msg string }{
		{"empty", "/v1/chat/completions", `{"model":"m",` + msgs + `,"chat_template":""}`, "must not be empty"},
		{"syntax", "/v1/chat/completions", `{"model":"m",` + msgs + `,"chat_template":"{% for %}"}`, "chat_template"},
		{"raised", "/v1/chat/completions", `{"model":"m",` + msgs + `,"chat_template":"{{ raise_exception('no system') }}"}`, "no system"},
		{"too much output", "/v1/chat/completions", `{"model":"m",` + msgs + `,"chat_template":"{{ 'x' * 100000000 }}"}`, "chat_template"},
		{"responses", "/v1/responses", `{"model":"m","input":"hi","chat_template":"{{ x.y.z }}"}`, "chat_template"},
		{"completions", "/v1/completions", `{"model":"m","prompt":"hi","chat_template":` + tpl + `}`, "/v1/completions"},
	}
	for _, c := range bad {
		body := ts.post(t, c.path, c.body, http.StatusBadRequest, nil)
		e := decodeErr(t, body).Error
		if e.Param == nil || *e.Param != "chat_template" || !strings.Contains(e.Message, c.msg) {
			t.Errorf("%s: error %+v, want param chat_template and %q", c.name, e, c.msg)
		}
	}
}
