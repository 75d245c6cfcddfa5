package cli

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/mlxrun/mlx/models/catalog"
	"github.com/mlxrun/mlx/models/hub"
	"github.com/mlxrun/mlx/runtime"
)

// TestServeLoaderPulls: without --allow-pull a hub model that is not in
// the cache is unknown; with it, the model is pulled when loaded and keeps
// its id, which every spelling of it gives once it is in the cache.
func TestServeLoaderPulls(t *testing.T) {
	hc := testHubClient(t)
	opt := runtime.Options{Ctx: 128, Threads: 1}
	const ref = "test/tiny-GGUF:q8_0"
	if _, err := newServeLoader(opt, hc, catalog.Options{}).Resolve(ref); !errors.Is(err, runtime.ErrModelNotFound) {
		t.Fatalf("without AllowPull: %v", err)
	}
	l := newServeLoader(opt, hc, catalog.Options{AllowPull: true})
	id, err := l.Resolve(ref)
	if err != nil || id != "test/tiny-GGUF:Q8_0" {
		t.Fatalf("Resolve(%s) = %q, %v", ref, id, err)
	}
	m, err := l.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	for _, name := range []string{"test/tiny-GGUF", "test/tiny-GGUF/llama-tiny-Q8_0.gguf", m.Info().Path} {
		if got, err := l.Resolve(name); err != nil || got != id {
			t.Errorf("after the pull, Resolve(%s) = %q, %v; want %q", name, got, err, id)
		}
	}
	var listed bool
	for _, a := range l.Available() {
		listed = listed || a.ID == id
	}
	if !listed {
		t.Errorf("the pulled model is not listed: %+v", l.Available())
	}
}

// testHubClient serves the fake hub's model and returns a client of it.
func testHubClient(t *testing.T) *hub.Client {
	t.Helper()
	fakeHubWithModel(t)
	hc, err := newHubClient(io.Discard, true)
	if err != nil {
		t.Fatal(err)
	}
	return hc
}
