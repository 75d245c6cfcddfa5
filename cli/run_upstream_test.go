package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/tui"
)

// TestRemoteChat checks the chat against an upstream: the settings go in
// the request, the reasoning comes back inside <think>…</think> and the
// usage in the stats.
func TestRemoteChat(t *testing.T) {
	var got map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		json.NewDecoder(r.Body).Decode(&got)
		for _, d := range []string{
			`{"choices":[{"index":0,"delta":{"reasoning_content":"hm"}}]}`,
			`{"choices":[{"index":0,"delta":{"content":"Blue."},"finish_reason":"stop"}]}`,
			`{"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":4}}`,
			`[DONE]`,
		} {
			fmt.Fprintf(w, "data: %s\n\n", d)
		}
	}))
	defer srv.Close()
	cmd := newRunCmd() // --upstream given, so MLX_UPSTREAM does not count
	if err := cmd.Flags().Parse([]string{"--upstream", "lab=" + srv.URL}); err != nil {
		t.Fatal(err)
	}
	var o upstreamFlags
	o.specs = []string{"lab=" + srv.URL}
	up, model, err := o.remoteRef(cmd.Flags(), "lab/big-model")
	if err != nil || up == nil || model != "big-model" {
		t.Fatalf("remoteRef: %v %v %q", up, err, model)
	}
	if up, _, _ := o.remoteRef(cmd.Flags(), "org/name"); up != nil {
		t.Fatal("a hub reference was taken for an upstream's model")
	}
	r := &remoteChat{up: up, model: model, flags: cmd.Flags()}
	var text strings.Builder
	stats, err := r.Chat(context.Background(), tui.ChatRequest{Messages: []tui.Message{{Role: "user", Content: "Sky?"}},
		Settings: tui.Settings{Temperature: 0.25, TopP: 1, MaxTokens: 7, Think: true}}, func(d tui.Delta) error {
		text.WriteString(d.Text)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if text.String() != "<think>hm</think>\n\nBlue." || stats.PromptTokens != 9 || stats.CompletionTokens != 4 || stats.Finish != tui.FinishStop {
		t.Fatalf("%q %+v", text.String(), stats)
	}
	if got["model"] != "big-model" || got["temperature"] != 0.25 || got["max_tokens"] != 7.0 || got["stream"] != true {
		t.Fatalf("the upstream got %v", got)
	}
}
