package hub

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/hub/hubtest"
)

// hfCache writes a repo into a cache the way huggingface_hub does and
// returns the commit.
func hfCache(t *testing.T, dir, repo string, files map[string][]byte) string {
	t.Helper()
	commit := "0123456789abcdef0123456789abcdef01234567"
	base := filepath.Join(dir, "models--"+strings.ReplaceAll(repo, "/", "--"))
	for name, data := range files {
		etag := gitSHA1(data)
		if strings.HasSuffix(name, ".safetensors") || strings.HasSuffix(name, ".gguf") {
			etag = sha256Hex(data)
		}
		must(t, os.MkdirAll(filepath.Join(base, "blobs"), 0o755))
		must(t, os.WriteFile(filepath.Join(base, "blobs", etag), data, 0o644))
		link := filepath.Join(base, "snapshots", commit, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(link), 0o755))
		rel := strings.Repeat("../", 2+strings.Count(name, "/")) + "blobs/" + etag
		must(t, os.Symlink(filepath.FromSlash(rel), link))
	}
	must(t, os.MkdirAll(filepath.Join(base, "refs"), 0o755))
	must(t, os.WriteFile(filepath.Join(base, "refs", "main"), []byte(commit), 0o644))
	return commit
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestReuseHFCache resolves models that huggingface_hub downloaded, without
// a single request.
func TestReuseHFCache(t *testing.T) {
	srv := startHub(t)
	for _, offline := range []bool{false, true} {
		c := newClient(t, srv, func(o *Options) { o.Offline = offline })
		st := hfCache(t, c.Cache().Dir, "org/model", safetensorsRepo(1000))
		gg := hfCache(t, c.Cache().Dir, "org/m-GGUF", map[string][]byte{
			"m-Q4_K_M.gguf": randomBytes(10, 1), "m-Q8_0.gguf": randomBytes(10, 2)})
		tests := []struct{ ref, want string }{
			{"org/model", c.Cache().SnapshotDir("org/model", st)},
			{"org/m-GGUF", filepath.Join(c.Cache().SnapshotDir("org/m-GGUF", gg), "m-Q4_K_M.gguf")},
			{"hf.co/org/m-GGUF:q8_0", filepath.Join(c.Cache().SnapshotDir("org/m-GGUF", gg), "m-Q8_0.gguf")},
			{"org/m-GGUF/m-Q8_0.gguf@" + gg, filepath.Join(c.Cache().SnapshotDir("org/m-GGUF", gg), "m-Q8_0.gguf")},
		}
		for _, tc := range tests {
			got, err := c.Resolve(context.Background(), tc.ref)
			if err != nil || got != tc.want {
				t.Errorf("offline=%v Resolve(%s) = %s, %v; want %s", offline, tc.ref, got, err, tc.want)
			}
		}
	}
	if r := srv.Requests(); len(r) != 0 {
		t.Fatalf("%d requests for cached models: %+v", len(r), r)
	}
}

func TestResolveLocalAndOffline(t *testing.T) {
	srv := startHub(t)
	srv.Publish("org/model", safetensorsRepo(1000))
	dir := t.TempDir()
	gguf := filepath.Join(dir, "x.gguf")
	must(t, os.WriteFile(gguf, []byte("GGUF"), 0o644))
	c := newClient(t, srv, func(o *Options) { o.Offline = true })
	for _, p := range []string{dir, gguf} {
		if got, err := c.Resolve(context.Background(), p); err != nil || got != p {
			t.Errorf("Resolve(%s) = %s, %v", p, got, err)
		}
	}
	if _, err := c.Resolve(context.Background(), "org/model"); !errors.Is(err, ErrNotCached) {
		t.Fatalf("offline resolve of an uncached model: %v", err)
	}
	if _, err := c.Pull(context.Background(), Ref{Repo: "org/model"}); !errors.Is(err, ErrNotCached) {
		t.Fatalf("offline pull of an uncached model: %v", err)
	}
	if r := srv.Requests(); len(r) != 0 {
		t.Fatalf("offline client sent %d requests", len(r))
	}
	online := newClient(t, srv, func(o *Options) { o.CacheDir = c.Cache().Dir })
	p, err := online.Resolve(context.Background(), "org/model")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := c.Resolve(context.Background(), "org/model"); err != nil || got != p {
		t.Fatalf("offline after pull: %s, %v; want %s", got, err, p)
	}
}

// TestIncompleteSnapshotRefetched checks that a snapshot missing a shard is
// not used: Resolve goes to the hub.
func TestIncompleteSnapshotRefetched(t *testing.T) {
	srv := startHub(t)
	files := safetensorsRepo(1000)
	delete(files, "model.safetensors")
	files["model-00001-of-00002.safetensors"] = randomBytes(100, 1)
	files["model-00002-of-00002.safetensors"] = randomBytes(100, 2)
	srv.Publish("org/model", files)
	c := newClient(t, srv, nil)
	partial := map[string][]byte{"config.json": files["config.json"],
		"model-00001-of-00002.safetensors": files["model-00001-of-00002.safetensors"]}
	hfCache(t, c.Cache().Dir, "org/model", partial)
	if _, err := c.Cache().Find(Ref{Repo: "org/model"}); !errors.Is(err, ErrNotCached) {
		t.Fatalf("partial snapshot found: %v", err)
	}
	p, err := c.Resolve(context.Background(), "org/model")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(p, "model-00002-of-00002.safetensors")); err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentPulls runs two pulls of one model into one cache: both
// succeed and the weights are downloaded once.
func TestConcurrentPulls(t *testing.T) {
	const size = 900_000
	srv := startHub(t)
	files := safetensorsRepo(size)
	srv.Publish("org/model", files)
	// The first download pauses after 300 kB, so the second pull finds
	// the lock held.
	srv.Inject(hubtest.Fault{Kind: hubtest.FaultStall, File: "model.safetensors", At: 300_000,
		Stall: 300 * time.Millisecond, Times: 1})
	dir := t.TempDir()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		c := newClient(t, srv, func(o *Options) { o.CacheDir = dir; o.StallTimeout = 5 * time.Second })
		if i == 1 {
			waitIncomplete(t, c.Cache(), 300_000)
		}
		wg.Go(func() { _, errs[i] = c.Pull(context.Background(), Ref{Repo: "org/model"}) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if served, _ := srv.Served("model.safetensors"); served != size {
		t.Fatalf("served %d bytes for a %d-byte file: downloaded twice", served, size)
	}
}
