package cli

import (
	"context"
	"errors"
	"testing"

	"github.com/mlxrun/mlx/models/catalog"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server"
)

// TestServeLoaderPull: /api/pull's download is refused without
// --allow-pull, reports the files' progress with it, and leaves the model
// in the cache, where a second pull finds it.
func TestServeLoaderPull(t *testing.T) {
	hc := testHubClient(t)
	opt := runtime.Options{Ctx: 128, Threads: 1}
	const ref = "test/tiny-GGUF:q8_0"
	var got []server.PullProgress
	progress := func(p server.PullProgress) { got = append(got, p) }
	ctx := context.Background()
	if err := newServeLoader(opt, hc, catalog.Options{}).Pull(ctx, ref, progress); !errors.Is(err, server.ErrPullRefused) {
		t.Fatalf("without AllowPull: %v", err)
	}
	l := newServeLoader(opt, hc, catalog.Options{AllowPull: true})
	if err := l.Pull(ctx, ref, progress); err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Fatal("no progress reported")
	}
	if last := got[len(got)-1]; last.File == "" || last.Total <= 0 || last.Completed != last.Total {
		t.Fatalf("progress %+v", got)
	}
	got = nil
	if err := l.Pull(ctx, ref, progress); err != nil || len(got) != 0 {
		t.Errorf("second pull: %v, progress %+v", err, got)
	}
	for _, name := range []string{"test/no-such-model", "../x", ""} {
		if err := l.Pull(ctx, name, progress); !errors.Is(err, runtime.ErrModelNotFound) {
			t.Errorf("Pull(%q): %v", name, err)
		}
	}
}
