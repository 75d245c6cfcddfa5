package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/server/ollama"
)

func TestOllamaModelRoutes(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{Version: "1.2.3"})
	var ps ollama.ProcessResponse
	getJSON(t, ts, "/api/ps", &ps)
	if len(ps.Models) != 0 {
		t.Errorf("ps before a load: %+v", ps)
	}
	var show ollama.ShowResponse
	ts.post(t, "/api/show", `{"model":"m"}`, http.StatusOK, &show)
	if show.Details.Family != "llama" || show.Details.QuantizationLevel != "Q8_0" || show.Details.ParameterSize != "1.0K" ||
		show.ModelInfo["llama.context_length"] != 512.0 || show.Capabilities[0] != "completion" ||
		!strings.HasPrefix(show.Modelfile, "FROM m\n") || !strings.Contains(show.Parameters, "temperature") {
		t.Errorf("show: %+v", show)
	}
	getJSON(t, ts, "/api/ps", &ps)
	if len(ps.Models) != 1 || ps.Models[0].Name != "m" || ps.Models[0].Size != 1<<20 || ps.Models[0].ExpiresAt.IsZero() ||
		ps.Models[0].ContextLength != 512 || len(ps.Models[0].Digest) != 64 {
		t.Errorf("ps: %+v", ps)
	}
	var tags ollama.ListResponse
	getJSON(t, ts, "/api/tags", &tags)
	if len(tags.Models) != 2 || tags.Models[0].Name != "m" || tags.Models[0].Details.Family != "llama" ||
		tags.Models[1].Name != "org/cached-model" || tags.Models[1].Size != 1234 || tags.Models[1].Details.QuantizationLevel != "Q4_K_M" ||
		tags.Models[0].Digest == tags.Models[1].Digest {
		t.Errorf("tags: %+v", tags)
	}
	var v ollama.VersionResponse
	getJSON(t, ts, "/api/version", &v)
	if v.Version != "1.2.3" {
		t.Errorf("version %+v", v)
	}
	for body, want := range map[string]string{`{}`: "model is required", `{"name":"nope"}`: `model "nope" not found`, `[`: "invalid request body"} {
		status, b, _ := ts.do(t, http.MethodPost, "/api/show", body)
		var e ollama.ErrorBody
		if json.Unmarshal(b, &e) != nil || status < 400 || !strings.Contains(e.Error, want) {
			t.Errorf("show %s: %d %s, want %q", body, status, b, want)
		}
	}
}

func TestParameterSize(t *testing.T) {
	for n, want := range map[int64]string{0: "", 999: "1.0K", 494_032_768: "494.0M", 7_615_616_512: "7.6B"} {
		if got := parameterSize(n); got != want {
			t.Errorf("parameterSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// getJSON gets path and decodes the 200 answer into out.
func getJSON(t *testing.T, ts *testServer, path string, out any) {
	t.Helper()
	status, b, _ := ts.do(t, http.MethodGet, path, "")
	if status != http.StatusOK || json.Unmarshal(b, out) != nil {
		t.Fatalf("GET %s: %d %s", path, status, b)
	}
}

// TestOllamaShowTemplate: show gives a real model's chat template, and
// the thinking capability of a template that can think.
func TestOllamaShowTemplate(t *testing.T) {
	m := loadEngine(t, "models", "qwen3-tiny")
	ts := startModels(t, modelLoader{"q": m})
	var show ollama.ShowResponse
	ts.post(t, "/api/show", `{"model":"q"}`, http.StatusOK, &show)
	if show.Template == "" || show.Template != m.ChatTemplate() || !strings.Contains(strings.Join(show.Capabilities, ","), "thinking") {
		t.Errorf("template %.80q, capabilities %v", show.Template, show.Capabilities)
	}
}
