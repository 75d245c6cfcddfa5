package hub

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/hub/hubtest"
)

// getsOf returns the content GETs the CDN received for a file.
func getsOf(srv *hubtest.Server, file string) []hubtest.Request {
	var out []hubtest.Request
	for _, r := range srv.Requests() {
		if r.Server == "cdn" && r.Method == "GET" && r.File == file {
			out = append(out, r)
		}
	}
	return out
}

// pullModel pulls org/model and checks the weights arrived intact.
func pullModel(t *testing.T, c *Client, want []byte) {
	t.Helper()
	s, err := c.Pull(context.Background(), Ref{Repo: "org/model"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readFile(t, filepath.Join(s.Dir, "model.safetensors")), want) {
		t.Fatal("model.safetensors differs from the hub's")
	}
}

// TestResumeSingleStream cuts the connection at byte K: the retry must ask
// for bytes=K- and the server must send the file's size in all, not twice.
func TestResumeSingleStream(t *testing.T) {
	const size, cut = 900_000, 345_678
	for _, kind := range []hubtest.FaultKind{hubtest.FaultCut, hubtest.FaultStall} {
		t.Run(fmt.Sprint(kind), func(t *testing.T) {
			srv := startHub(t)
			files := safetensorsRepo(size)
			srv.Publish("org/model", files)
			srv.Inject(hubtest.Fault{Kind: kind, File: "model.safetensors", At: cut, Stall: 5 * time.Second, Times: 1})
			start := time.Now()
			pullModel(t, newClient(t, srv, nil), files["model.safetensors"])
			gets := getsOf(srv, "model.safetensors")
			if len(gets) != 2 || gets[0].Range != "" || gets[1].Range != fmt.Sprintf("bytes=%d-", cut) {
				t.Fatalf("requests %+v, want a second one for bytes=%d-", gets, cut)
			}
			if served, _ := srv.Served("model.safetensors"); served != size {
				t.Fatalf("served %d bytes for a %d-byte file", served, size)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Fatalf("took %v", d)
			}
		})
	}
}

// TestResumeParallel cuts one of three ranges: only that range is asked
// again, from where it stopped.
func TestResumeParallel(t *testing.T) {
	const size, cut = 3 << 20, 100_000
	srv := startHub(t)
	files := safetensorsRepo(size)
	srv.Publish("org/model", files)
	srv.Inject(hubtest.Fault{Kind: hubtest.FaultCut, File: "model.safetensors", At: cut, Times: 1})
	pullModel(t, newClient(t, srv, nil), files["model.safetensors"])
	gets := getsOf(srv, "model.safetensors")
	if len(gets) != 4 {
		t.Fatalf("%d GETs, want 3 ranges and one retry: %+v", len(gets), gets)
	}
	// Requests on several connections may be logged in any order.
	var retry string
	for _, g := range gets {
		var a, b int64
		if _, err := fmt.Sscanf(g.Range, "bytes=%d-%d", &a, &b); err == nil && g.BodyBytes == cut {
			retry = fmt.Sprintf("bytes=%d-%d", a+cut, b)
		}
	}
	if retry == "" || !slices.ContainsFunc(gets, func(r hubtest.Request) bool { return r.Range == retry }) {
		t.Fatalf("no retry asked %q: %+v", retry, gets)
	}
	if served, _ := srv.Served("model.safetensors"); served != size {
		t.Fatalf("served %d bytes for a %d-byte file", served, size)
	}
}

// TestResumeAfterCancel stops a pull (Ctrl+C) in the middle of a file; the
// next pull asks only for the missing bytes, for one and for three ranges.
func TestResumeAfterCancel(t *testing.T) {
	for _, tc := range []struct {
		name   string
		size   int
		subdir string // of the cache directory: glob metacharacters must not matter
	}{{"single", 900_000, ""}, {"ranges", 3 << 20, ""}, {"ranges in a bracketed cache", 3 << 20, "[cache]*"}} {
		t.Run(tc.name, func(t *testing.T) {
			const cut = 200_000
			srv := startHub(t)
			files := safetensorsRepo(tc.size)
			srv.Publish("org/model", files)
			srv.Inject(hubtest.Fault{Kind: hubtest.FaultStall, File: "model.safetensors", At: cut, Stall: 10 * time.Second})
			c := newClient(t, srv, func(o *Options) {
				o.StallTimeout = 10 * time.Second
				o.CacheDir = filepath.Join(o.CacheDir, tc.subdir)
			})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { _, err := c.Pull(ctx, Ref{Repo: "org/model"}); done <- err }()
			waitIncomplete(t, c.Cache(), cut)
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled pull: %v", err)
			}
			srv.ClearFaults()
			kept := bytesOnDisk(t, c.Cache())
			srv.ClearRequests()
			pullModel(t, c, files["model.safetensors"])
			for _, g := range getsOf(srv, "model.safetensors") {
				var a int64
				if _, err := fmt.Sscanf(g.Range, "bytes=%d-", &a); err != nil || a == 0 {
					t.Errorf("resumed request asks %q: it should skip the bytes on disk", g.Range)
				}
			}
			if after, _ := srv.Served("model.safetensors"); kept < cut || kept+after != int64(tc.size) {
				t.Fatalf("%d bytes kept, %d served again for a %d-byte file", kept, after, tc.size)
			}
			if left := partialFiles(t, c.Cache()); len(left) != 0 {
				t.Fatalf("partial files left after the download: %v", left)
			}
		})
	}
}

// partialFiles lists the partial downloads of the weights (the .incomplete
// file and its range files).
func partialFiles(t *testing.T, c Cache) []string {
	t.Helper()
	dir := filepath.Join(c.RepoDir("org/model"), "blobs")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.Contains(e.Name(), ".incomplete") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// bytesOnDisk sums the partial downloads of the weights.
func bytesOnDisk(t *testing.T, c Cache) int64 {
	t.Helper()
	var n int64
	for _, p := range partialFiles(t, c) {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		n += st.Size()
	}
	return n
}

// waitIncomplete waits until the .incomplete file of the weights holds n
// bytes.
func waitIncomplete(t *testing.T, c Cache, n int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		entries, _ := os.ReadDir(filepath.Join(c.RepoDir("org/model"), "blobs"))
		for _, e := range entries {
			if st, err := e.Info(); err == nil && strings.HasSuffix(e.Name(), ".incomplete") && st.Size() >= n {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no .incomplete file reached %d bytes", n)
}

func TestRetryServerErrors(t *testing.T) {
	srv := startHub(t)
	files := safetensorsRepo(50_000)
	srv.Publish("org/model", files)
	srv.Inject(hubtest.Fault{Kind: hubtest.FaultStatus, Status: 503, File: "model.safetensors", Times: 2})
	pullModel(t, newClient(t, srv, nil), files["model.safetensors"])
	if n := len(getsOf(srv, "model.safetensors")); n != 3 {
		t.Fatalf("%d GETs, want two 503s and a success", n)
	}
}

func TestFailures(t *testing.T) {
	tests := []struct {
		name  string
		setup func(*hubtest.Server)
		ref   Ref
		want  error
	}{
		{"checksum", func(s *hubtest.Server) {
			s.Inject(hubtest.Fault{Kind: hubtest.FaultCorrupt, File: "model.safetensors"})
		}, Ref{Repo: "org/model"}, ErrChecksum},
		{"small file checksum", func(s *hubtest.Server) {
			s.Inject(hubtest.Fault{Kind: hubtest.FaultCorrupt, File: "config.json"})
		}, Ref{Repo: "org/model"}, ErrChecksum},
		{"gated", func(s *hubtest.Server) { s.Gate("org/model", "secret") }, Ref{Repo: "org/model"}, ErrUnauthorized},
		{"401 on a file", func(s *hubtest.Server) {
			s.Inject(hubtest.Fault{Kind: hubtest.FaultStatus, Status: 401, File: "model.safetensors"})
		}, Ref{Repo: "org/model"}, ErrUnauthorized},
		{"no repo", nil, Ref{Repo: "org/nothing"}, ErrNotFound},
		{"no revision", nil, Ref{Repo: "org/model", Revision: "v9"}, ErrNotFound},
		{"404 on a file", func(s *hubtest.Server) {
			s.Inject(hubtest.Fault{Kind: hubtest.FaultStatus, Status: 404, File: "model.safetensors"})
		}, Ref{Repo: "org/model"}, ErrNotFound},
		{"500 forever", func(s *hubtest.Server) {
			s.Inject(hubtest.Fault{Kind: hubtest.FaultStatus, Status: 500, File: "model.safetensors"})
		}, Ref{Repo: "org/model"}, nil},
		{"no quant", nil, Ref{Repo: "org/model", Quant: "Q4_K_M"}, ErrNoQuant},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := startHub(t)
			srv.Publish("org/model", safetensorsRepo(50_000))
			if tc.setup != nil {
				tc.setup(srv)
			}
			c := newClient(t, srv, nil)
			_, err := c.Pull(context.Background(), tc.ref)
			if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if _, err := os.Stat(filepath.Join(c.Cache().RepoDir("org/model"), "snapshots")); err == nil {
				t.Error("a failed pull left a snapshot")
			}
			if _, err := os.Stat(filepath.Join(c.Cache().RepoDir("org/model"), "refs")); err == nil {
				t.Error("a failed pull left a ref")
			}
			for _, b := range blobNames(t, c.Cache(), "org/model") {
				if tc.want == ErrChecksum && filepath.Ext(b) == ".incomplete" {
					t.Errorf("a bad download stayed: %s", b)
				}
			}
		})
	}
}

func TestGatedWithToken(t *testing.T) {
	srv := startHub(t)
	files := safetensorsRepo(50_000)
	srv.Publish("org/model", files)
	srv.Gate("org/model", "secret")
	pullModel(t, newClient(t, srv, func(o *Options) { o.Token = "secret" }), files["model.safetensors"])
	for _, r := range srv.Requests() {
		if want := map[string]string{"hub": "Bearer secret", "cdn": ""}[r.Server]; r.Auth != want {
			t.Errorf("%s %s carried Authorization %q, want %q", r.Server, r.Path, r.Auth, want)
		}
	}
}

func TestTreeFallbackAndRename(t *testing.T) {
	srv := startHub(t)
	files := safetensorsRepo(50_000)
	srv.Publish("org/old", files)
	srv.Rename("org/old", "org/model")
	srv.DisableRevisionAPI()
	srv.SetTreePage(2)
	c := newClient(t, srv, nil)
	s, err := c.Pull(context.Background(), Ref{Repo: "org/old"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Files) != 4 || !bytes.Equal(readFile(t, filepath.Join(s.Dir, "model.safetensors")), files["model.safetensors"]) {
		t.Fatalf("files %v", s.Files)
	}
}

// TestServerIgnoresRanges: when a server answers range requests with the
// whole file, ranges fall back to one stream, and a resumed stream starts
// over.
func TestServerIgnoresRanges(t *testing.T) {
	const size, cut = 3 << 20, 500_000
	for _, conns := range []int{3, 1} {
		t.Run(fmt.Sprint(conns), func(t *testing.T) {
			srv := startHub(t)
			files := safetensorsRepo(size)
			srv.Publish("org/model", files)
			srv.IgnoreRanges()
			if conns == 1 {
				srv.Inject(hubtest.Fault{Kind: hubtest.FaultCut, File: "model.safetensors", At: cut, Times: 1})
			}
			pullModel(t, newClient(t, srv, func(o *Options) { o.Connections = conns }), files["model.safetensors"])
			// The request that completed the file: one stream from the
			// start, or the resume at the cut.
			want := ""
			if conns == 1 {
				want = fmt.Sprintf("bytes=%d-", cut)
			}
			gets := getsOf(srv, "model.safetensors")
			if !slices.ContainsFunc(gets, func(r hubtest.Request) bool {
				return r.Range == want && r.Status == 200 && r.BodyBytes == size
			}) {
				t.Fatalf("requests %+v, none asked %q and got the whole file", gets, want)
			}
		})
	}
}

// TestRefs checks that a branch or tag gets its ref and a commit none.
func TestRefs(t *testing.T) {
	srv := startHub(t)
	commit := srv.Publish("org/model", safetensorsRepo(100))
	srv.Tag("org/model", "v1.0", commit)
	c := newClient(t, srv, nil)
	for _, rev := range []string{"v1.0", commit} {
		s, err := c.Pull(context.Background(), Ref{Repo: "org/model", Revision: rev})
		if err != nil || s.Commit != commit {
			t.Fatalf("pull @%s: %+v, %v", rev, s, err)
		}
	}
	refs, err := filepath.Glob(filepath.Join(c.Cache().RepoDir("org/model"), "refs", "*"))
	if err != nil || len(refs) != 1 || filepath.Base(refs[0]) != "v1.0" {
		t.Fatalf("refs %v, want only v1.0", refs)
	}
	if got, err := c.Cache().ReadRef("org/model", "v1.0"); err != nil || got != commit {
		t.Fatalf("refs/v1.0 = %s, %v", got, err)
	}
}
