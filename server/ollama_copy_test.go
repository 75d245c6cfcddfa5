package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/server/ollama"
)

// TestOllamaCopyDelete: a copy is another name of a model, which chat,
// tags and show take until /api/delete removes it; no model file is
// deleted.
func TestOllamaCopyDelete(t *testing.T) {
	ts, f := startFake(t, "hi", Options{})
	// The fake loader has no Resolver: the server knows "m" once loaded.
	ts.post(t, "/api/generate", `{"model":"m"}`, http.StatusOK, nil)
	ts.post(t, "/api/copy", `{"source":"m","destination":"mine"}`, http.StatusOK, nil)
	var r ollama.ChatResponse
	ts.post(t, "/api/chat", `{"model":"mine","stream":false,"messages":[{"role":"user","content":"x"}]}`, http.StatusOK, &r)
	if r.Message.Content != "hi" || r.Model != "mine" || f.lastReq.Prompt == nil {
		t.Errorf("chat with the copy: %+v", r)
	}
	var tags ollama.ListResponse
	getJSON(t, ts, "/api/tags", &tags)
	var names []string
	for _, m := range tags.Models {
		names = append(names, m.Name)
	}
	if strings.Join(names, ",") != "m,org/cached-model,mine" || tags.Models[2].Digest != tags.Models[0].Digest {
		t.Errorf("tags: %v", names)
	}
	for _, tc := range []struct {
		method, path, body string
		status             int
		msg                string
	}{
		{http.MethodPost, "/api/copy", `{"source":"nope","destination":"x"}`, 404, "not found, try pulling"},
		{http.MethodPost, "/api/copy", `{"source":"m","destination":"m"}`, 400, "already names"},
		{http.MethodPost, "/api/copy", `{"source":"m"}`, 400, "required"},
		{http.MethodDelete, "/api/delete", `{"model":"m"}`, 403, "mlx rm"},
		{http.MethodDelete, "/api/delete", `{"model":"nope"}`, 404, "not found"},
		{http.MethodDelete, "/api/delete", `{"model":"mine"}`, 200, ""},
		{http.MethodPost, "/api/chat", `{"model":"mine","messages":[]}`, 404, "not found"},
	} {
		status, b, _ := ts.do(t, tc.method, tc.path, tc.body)
		if status != tc.status || !strings.Contains(string(b), tc.msg) {
			t.Errorf("%s %s %s: %d %s, want %d with %q", tc.method, tc.path, tc.body, status, b, tc.status, tc.msg)
		}
	}
}
