package hub

import (
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestPullLayout(t *testing.T) {
	srv := startHub(t)
	files := safetensorsRepo(200 << 10)
	commit := srv.Publish("org/model", files)
	c := newClient(t, srv, nil)
	s, err := c.Pull(context.Background(), Ref{Repo: "org/model"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json"}
	if !slices.Equal(s.Files, want) || s.Commit != commit || s.Path != s.Dir || s.Format != FormatSafetensors {
		t.Fatalf("snapshot %+v, want files %v at %s", s, want, commit)
	}
	if s.Dir != filepath.Join(c.Cache().Dir, "models--org--model", "snapshots", commit) {
		t.Fatalf("snapshot dir %s", s.Dir)
	}
	for _, f := range want {
		link := filepath.Join(s.Dir, f)
		target, err := os.Readlink(link)
		if err != nil {
			t.Fatalf("%s is not a symlink: %v", f, err)
		}
		etag := gitSHA1(files[f])
		if f == "model.safetensors" {
			etag = sha256Hex(files[f])
		}
		if target != filepath.Join("..", "..", "blobs", etag) {
			t.Errorf("%s links to %s, want ../../blobs/%s", f, target, etag)
		}
		if !bytes.Equal(readFile(t, link), files[f]) {
			t.Errorf("%s: content differs", f)
		}
	}
	if ref := readFile(t, filepath.Join(c.Cache().RepoDir("org/model"), "refs", "main")); string(ref) != commit {
		t.Errorf("refs/main holds %q, want %s", ref, commit)
	}
	if n := len(blobNames(t, c.Cache(), "org/model")); n != len(want) {
		t.Errorf("%d blobs, want %d", n, len(want))
	}
	srv.ClearRequests()
	if _, err := c.Pull(context.Background(), Ref{Repo: "org/model"}); err != nil {
		t.Fatal(err)
	}
	for _, r := range srv.Requests() {
		if r.Method != "GET" || !strings.HasPrefix(r.Path, "/api/") {
			t.Errorf("second pull sent %s %s", r.Method, r.Path)
		}
	}
}

func TestPullSubfolderGGUF(t *testing.T) {
	srv := startHub(t)
	data := randomBytes(100<<10, 4)
	srv.Publish("org/m-GGUF", map[string][]byte{"Q8_0/m-Q8_0.gguf": data, "m-Q4_K_M.gguf": randomBytes(10, 5)})
	c := newClient(t, srv, nil)
	s, err := c.Pull(context.Background(), Ref{Repo: "org/m-GGUF", Quant: "q8_0"})
	if err != nil {
		t.Fatal(err)
	}
	target, err := os.Readlink(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join("..", "..", "..", "blobs", sha256Hex(data)); target != want {
		t.Fatalf("link %s, want %s", target, want)
	}
	if !bytes.Equal(readFile(t, s.Path), data) {
		t.Fatal("content differs")
	}
}

func TestPullSplitGGUF(t *testing.T) {
	srv := startHub(t)
	files := map[string][]byte{"m-Q4_K_M.gguf": randomBytes(10, 1)}
	for i := 1; i <= 3; i++ {
		files[fmt.Sprintf("m-Q6_K-%05d-of-00003.gguf", i)] = randomBytes(1000, uint64(i))
	}
	srv.Publish("org/m", files)
	c := newClient(t, srv, nil)
	s, err := c.Pull(context.Background(), Ref{Repo: "org/m", Quant: "Q6_K"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Files) != 3 || filepath.Base(s.Path) != "m-Q6_K-00001-of-00003.gguf" {
		t.Fatalf("files %v path %s", s.Files, s.Path)
	}
	for _, f := range s.Files {
		if !bytes.Equal(readFile(t, filepath.Join(s.Dir, f)), files[f]) {
			t.Errorf("%s differs", f)
		}
	}
	if _, gets := srv.Served("m-Q4_K_M.gguf"); gets != 0 {
		t.Error("an unwanted quantization was downloaded")
	}
}

func gitSHA1(b []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(b))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
