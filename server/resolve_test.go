package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mlxrun/mlx/runtime"
)

// resolvingLoader is a fakeLoader whose models have several spellings.
type resolvingLoader struct {
	*fakeLoader
	spellings map[string]string // name → id
}

func (l *resolvingLoader) Resolve(name string) (string, error) {
	if id, ok := l.spellings[name]; ok {
		return id, nil
	}
	return "", fmt.Errorf("%w: no model named %q here", runtime.ErrModelNotFound, name)
}

func (l *resolvingLoader) Available() []Available {
	return []Available{{ID: "m", Format: "gguf"}, {ID: "m-alias", Format: "gguf"}}
}

func startResolving(t *testing.T, opt Options) (*testServer, *resolvingLoader) {
	t.Helper()
	f := newFake("ok")
	f.id = "m"
	l := &resolvingLoader{fakeLoader: newFakeLoader(f),
		spellings: map[string]string{"m": "m", "m-alias": "m", "/models/./m.gguf": "m", "/models/m.gguf": "m"}}
	return start(t, l, opt), l
}

// TestSpellingsShareOneEngine: every spelling of a model loads one engine,
// counts once against MaxLoaded and labels its metrics with its id.
func TestSpellingsShareOneEngine(t *testing.T) {
	ts, l := startResolving(t, Options{MaxLoaded: 1})
	for _, name := range []string{"/models/./m.gguf", "/models/m.gguf", "m-alias", "m"} {
		ts.post(t, "/v1/completions", `{"model":"`+name+`","prompt":"a"}`, 200, nil)
	}
	if n := l.count("m"); n != 1 {
		t.Errorf("4 spellings loaded the model %d times", n)
	}
	if n := ts.models.loaded(); n != 1 {
		t.Errorf("%d models loaded", n)
	}
	_, b, _ := ts.do(t, "GET", "/metrics", "")
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, `model="`) && !strings.Contains(line, `model="m"`) {
			t.Errorf("a series labelled with a spelling: %s", line)
		}
	}
}

// TestUnknownModelIsNoSeries: a name that is no model is a quick 404 and
// adds no metrics series, with or without a Resolver.
func TestUnknownModelIsNoSeries(t *testing.T) {
	plain, _ := startFake(t, "ok", Options{})
	resolving, _ := startResolving(t, Options{})
	for _, ts := range []*testServer{plain, resolving} {
		for _, name := range []string{"junk-123", "/etc/passwd"} {
			start := time.Now()
			status, b, _ := ts.do(t, "POST", "/v1/chat/completions", `{"model":"`+name+`",`+userHi+`}`)
			if status != 404 || time.Since(start) > time.Second {
				t.Errorf("%s: status %d after %v: %s", name, status, time.Since(start), b)
			}
			if e := decodeErr(t, b); e.Error.Code == nil || *e.Error.Code != "model_not_found" || strings.Contains(e.Error.Message, "here") {
				t.Errorf("%s: body %s", name, b)
			}
		}
		_, b, _ := ts.do(t, "GET", "/metrics", "")
		if strings.Contains(string(b), "junk-123") || strings.Contains(string(b), "passwd") {
			t.Errorf("a bogus name made a series:\n%s", b)
		}
	}
}

// TestModelByAskedID: GET /v1/models/{id} answers with the id asked for,
// for any spelling the server would load.
func TestModelByAskedID(t *testing.T) {
	ts, l := startResolving(t, Options{})
	for _, id := range []string{"m-alias", "m", "/models/m.gguf"} {
		var got struct{ ID string }
		status, b, _ := ts.do(t, "GET", "/v1/models/"+strings.TrimPrefix(id, "/"), "")
		if strings.HasPrefix(id, "/") {
			status, b, _ = ts.do(t, "GET", "/v1/models/"+strings.ReplaceAll(id, "/", "%2F"), "")
		}
		if status != 200 {
			t.Errorf("GET /v1/models/%s: %d %s", id, status, b)
			continue
		}
		if err := json.Unmarshal(b, &got); err != nil || got.ID != id {
			t.Errorf("GET /v1/models/%s: id %q (%v)", id, got.ID, err)
		}
	}
	if status, _, _ := ts.do(t, "GET", "/v1/models/nope", ""); status != 404 {
		t.Errorf("an unknown model: %d", status)
	}
	if n := l.count("m"); n != 0 {
		t.Errorf("describing a model loaded it %d times", n)
	}
	// Loaded, it is listed once under its id.
	if err := ts.Preload(context.Background(), "m-alias"); err != nil {
		t.Fatal(err)
	}
	_, b, _ := ts.do(t, "GET", "/v1/models", "")
	if strings.Count(string(b), `"id":"m"`) != 1 || !strings.Contains(string(b), `"id":"m-alias"`) {
		t.Errorf("models %s", b)
	}
}
