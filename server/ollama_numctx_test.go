package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/server/ollama"
)

// TestOllamaNumCtx: options.num_ctx shortens the context a request runs
// in: without num_predict the answer may fill what the prompt leaves of
// it, and a prompt that does not fit it is refused. A num_ctx above the
// model's context changes nothing.
func TestOllamaNumCtx(t *testing.T) {
	ts, f := startFake(t, "abc", Options{})
	chat := func(numCtx int) (int, []byte) {
		status, body, _ := ts.do(t, http.MethodPost, "/api/chat",
			fmt.Sprintf(`{"model":"m","stream":false,"messages":[{"role":"user","content":"hello"}],"options":{"num_ctx":%d}}`, numCtx))
		return status, body
	}
	for _, numCtx := range []int{100, 10000} {
		if status, body := chat(numCtx); status != http.StatusOK {
			t.Fatalf("num_ctx %d: %d %s", numCtx, status, body)
		}
		prompt, room := len(f.lastReq.Prompt), min(numCtx, f.ctxLen)
		if got := f.lastReq.Params.MaxTokens; got != room-prompt {
			t.Errorf("num_ctx %d: max tokens %d, want %d (context %d, prompt %d)", numCtx, got, room-prompt, room, prompt)
		}
	}
	status, body := chat(len(f.lastReq.Prompt))
	var e ollama.ErrorBody
	if err := json.Unmarshal(body, &e); err != nil || status != http.StatusBadRequest || !strings.Contains(e.Error, "context") {
		t.Errorf("a prompt as long as num_ctx: %d %s, want 400 about the context", status, body)
	}
}
