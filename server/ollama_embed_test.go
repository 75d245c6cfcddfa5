package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/server/ollama"
)

// TestOllamaEmbed checks /api/embed's vectors against /v1/embeddings'.
func TestOllamaEmbed(t *testing.T) {
	m := embedModel{loadEngine(t, "gguf", "llama-tiny-F32.gguf"), config.PoolMean}
	ts := startModels(t, modelLoader{"tiny": m})
	var want embResp
	ts.post(t, "/v1/embeddings", `{"model":"tiny","input":["The capital of France","héllo"]}`, http.StatusOK, &want)
	var r ollama.EmbedResponse
	ts.post(t, "/api/embed", `{"model":"tiny","input":["The capital of France","héllo"]}`, http.StatusOK, &r)
	if r.Model != "tiny" || len(r.Embeddings) != 2 || r.PromptEvalCount != want.Usage.PromptTokens || r.TotalDuration <= 0 {
		t.Fatalf("got %d vectors, %+v", len(r.Embeddings), r.PromptEvalCount)
	}
	for i := range r.Embeddings {
		if !closeTo(r.Embeddings[i], want.floats(t, i), 1e-6) {
			t.Errorf("vector %d differs from /v1/embeddings'", i)
		}
	}
	ts.post(t, "/api/embed", `{"model":"tiny","input":"Paris","dimensions":8}`, http.StatusOK, &r)
	if len(r.Embeddings) != 1 || len(r.Embeddings[0]) != 8 {
		t.Errorf("dimensions 8: got %d vectors of %d", len(r.Embeddings), len(r.Embeddings[0]))
	}
	long := strings.Repeat("word ", 4096)
	ts.post(t, "/api/embed", `{"model":"tiny","input":"`+long+`"}`, http.StatusOK, &r)
	for body, want := range map[string]string{
		`{"model":"tiny","input":"` + long + `","truncate":false}`: "context length",
		`{"model":"tiny","input":[]}`:                              "input is required",
		`{"model":"tiny","input":3}`:                               "input must be",
		`{"model":"nope","input":"x"}`:                             `model "nope" not found`,
	} {
		status, b, _ := ts.do(t, http.MethodPost, "/api/embed", body)
		var e ollama.ErrorBody
		if json.Unmarshal(b, &e) != nil || status < 400 || !strings.Contains(e.Error, want) {
			t.Errorf("%.60s: %d %s, want %q", body, status, b, want)
		}
	}
	fake, _ := startFake(t, "ok", Options{})
	status, b, _ := fake.do(t, http.MethodPost, "/api/embed", `{"model":"m","input":"x"}`)
	if status != http.StatusBadRequest || !strings.Contains(string(b), "cannot compute embeddings") {
		t.Errorf("a model without embeddings: %d %s", status, b)
	}
}
