package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/ollama"
)

// pullLoader is a fake loader that pulls: two files, or an error.
type pullLoader struct {
	*fakeLoader
	refuse bool
}

func (l pullLoader) Pull(ctx context.Context, name string, progress func(PullProgress)) error {
	switch {
	case l.refuse:
		return fmt.Errorf("%w: start with --allow-pull", ErrPullRefused)
	case name != "org/model":
		return fmt.Errorf("%w: no %s on the hub", runtime.ErrModelNotFound, name)
	}
	for _, f := range []string{"config.json", "model.gguf"} {
		progress(PullProgress{File: f, Total: 100, Completed: 50})
		progress(PullProgress{File: f, Total: 100, Completed: 100})
	}
	return nil
}

func TestOllamaPull(t *testing.T) {
	ts := start(t, pullLoader{fakeLoader: newFakeLoader(newFake("ok"))}, Options{})
	status, body, _ := ts.do(t, http.MethodPost, "/api/pull", `{"model":"org/model"}`)
	lines := ndjson[ollama.ProgressResponse](t, body)
	if status != http.StatusOK || len(lines) != 6 || lines[0].Status != "pulling manifest" || lines[5].Status != "success" ||
		lines[4].Status != "pulling model.gguf" || lines[4].Completed != 100 || lines[4].Total != 100 {
		t.Errorf("stream: %d %s", status, body)
	}
	var r ollama.ProgressResponse
	ts.post(t, "/api/pull", `{"name":"org/model","stream":false}`, http.StatusOK, &r)
	if r.Status != "success" {
		t.Errorf("not streamed: %+v", r)
	}
	status, body, _ = ts.do(t, http.MethodPost, "/api/pull", `{"model":"org/none"}`)
	if !strings.Contains(string(body), `"error":"pull org/none: `) {
		t.Errorf("unknown model: %d %s", status, body)
	}
	status, body, _ = ts.do(t, http.MethodPost, "/api/pull", `{"model":"org/none","stream":false}`)
	if status != http.StatusNotFound {
		t.Errorf("unknown model, not streamed: %d %s", status, body)
	}
	refused := start(t, pullLoader{fakeLoader: newFakeLoader(newFake("ok")), refuse: true}, Options{})
	status, body, _ = refused.do(t, http.MethodPost, "/api/pull", `{"model":"org/model","stream":false}`)
	if status != http.StatusForbidden || !strings.Contains(string(body), "--allow-pull") {
		t.Errorf("refused: %d %s", status, body)
	}
	plain, _ := startFake(t, "ok", Options{})
	for body, want := range map[string]int{`{"model":"org/model"}`: http.StatusForbidden, `{}`: http.StatusBadRequest} {
		if status, b, _ := plain.do(t, http.MethodPost, "/api/pull", body); status != want {
			t.Errorf("loader without pulls, %s: %d %s, want %d", body, status, b, want)
		}
	}
}
