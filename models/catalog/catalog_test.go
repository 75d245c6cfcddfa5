package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/hub"
)

const commit = "0123456789abcdef0123456789abcdef01234567"

// write creates a file with content, and its folders.
func write(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// cacheWith makes a hub cache holding repo at commit (ref main) with files.
func cacheWith(t *testing.T, dir, repo string, files ...string) hub.Cache {
	t.Helper()
	c := hub.Cache{Dir: dir}
	write(t, filepath.Join(c.RepoDir(repo), "refs", "main"), commit)
	for _, f := range files {
		write(t, filepath.Join(c.SnapshotDir(repo, commit), f), "weights")
	}
	return c
}

// fixture is a catalog with a model given at start, a models folder and a
// cache.
func fixture(t *testing.T, opt Options) (*Catalog, string) {
	t.Helper()
	root := t.TempDir()
	opt.Cache = cacheWith(t, filepath.Join(root, "hub"), "org/name-GGUF", "name-Q4_K_M.gguf", "name-Q8_0.gguf")
	cacheWith(t, filepath.Join(root, "hub"), "Qwen/Qwen3-0.6B", "config.json", "model.safetensors", "tokenizer.json")
	opt.Named = append(opt.Named, write(t, filepath.Join(root, "named", "chat-tiny.gguf"), "GGUF"))
	opt.ModelsDir = filepath.Join(root, "models")
	write(t, filepath.Join(opt.ModelsDir, "small.gguf"), "GGUF")
	write(t, filepath.Join(opt.ModelsDir, "big-00001-of-00002.gguf"), "GGUF")
	write(t, filepath.Join(opt.ModelsDir, "big-00002-of-00002.gguf"), "GGUF")
	write(t, filepath.Join(opt.ModelsDir, "family", "sub-Q4_0.gguf"), "GGUF")
	write(t, filepath.Join(opt.ModelsDir, "hf-model", "config.json"), "{}")
	write(t, filepath.Join(opt.ModelsDir, "notes.txt"), "x")
	return New(opt), root
}

func TestResolveSpellings(t *testing.T) {
	c, root := fixture(t, Options{})
	named := filepath.Join(root, "named", "chat-tiny.gguf")
	cases := []struct{ name, id string }{
		{"chat-tiny", "chat-tiny"},
		{named, "chat-tiny"},
		{filepath.Join(root, "named", ".", "chat-tiny.gguf"), "chat-tiny"},
		{filepath.Join(root, "named", ".", ".", "..", "named", "chat-tiny.gguf"), "chat-tiny"},
		{"small", "small"},
		{filepath.Join(root, "models", "small.gguf"), "small"},
		{"big", "big"},
		{"family/sub-Q4_0", "family/sub-Q4_0"},
		{"hf-model", "hf-model"},
		{"org/name-GGUF:Q4_K_M", "org/name-GGUF:Q4_K_M"},
		{"org/name-GGUF:q4_k_m", "org/name-GGUF:Q4_K_M"},
		{"org/name-GGUF/name-Q8_0.gguf", "org/name-GGUF:Q8_0"},
		{"hf.co/org/name-GGUF:Q8_0", "org/name-GGUF:Q8_0"},
		{"Qwen/Qwen3-0.6B", "Qwen/Qwen3-0.6B"},
		{"qwen3:0.6b", "Qwen/Qwen3-0.6B"},
		{"Qwen/Qwen3-0.6B@main", "Qwen/Qwen3-0.6B"},
	}
	for _, tc := range cases {
		m, err := c.Resolve(tc.name)
		if err != nil || m.ID != tc.id || m.Path == "" {
			t.Errorf("Resolve(%q) = %+v, %v; want id %q with a path", tc.name, m, err, tc.id)
		}
	}
	// A symbolic link to a listed model is the same model.
	link := filepath.Join(root, "link.gguf")
	if err := os.Symlink(named, link); err != nil {
		t.Fatal(err)
	}
	if m, err := c.Resolve(link); err != nil || m.ID != "chat-tiny" {
		t.Errorf("Resolve(link) = %+v, %v", m, err)
	}
}

func TestPull(t *testing.T) {
	c, _ := fixture(t, Options{Named: []string{"org/named-repo:q8_0"}})
	m, err := c.Resolve("org/named-repo:Q8_0")
	if err != nil || m.ID != "org/named-repo:Q8_0" || m.Pull != m.ID {
		t.Errorf("a named model to pull: %+v, %v", m, err)
	}
	if _, err := c.Resolve("org/other"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a model to pull without AllowPull: %v", err)
	}
	c, _ = fixture(t, Options{AllowPull: true})
	if m, err := c.Resolve("org/other:latest"); err != nil || m.ID != "org/other" || m.Pull != "org/other" {
		t.Errorf("with AllowPull: %+v, %v", m, err)
	}
}

func TestRemember(t *testing.T) {
	c, root := fixture(t, Options{AllowPull: true})
	path := filepath.Join(hub.Cache{Dir: filepath.Join(root, "hub")}.SnapshotDir("org/name-GGUF", commit), "name-Q4_K_M.gguf")
	c.Remember("org/name-GGUF", path)
	for _, name := range []string{"org/name-GGUF", "org/name-GGUF:Q4_K_M"} {
		if m, err := c.Resolve(name); err != nil || m.ID != "org/name-GGUF" {
			t.Errorf("Resolve(%q) after the pull = %+v, %v", name, m, err)
		}
	}
}

func TestList(t *testing.T) {
	c, _ := fixture(t, Options{Named: []string{"org/to-pull"}})
	var ids []string
	for _, l := range c.List() {
		ids = append(ids, l.ID)
		if l.Model.Path == "" {
			t.Errorf("%s listed without a path", l.ID)
		}
	}
	want := "chat-tiny big family/sub-Q4_0 hf-model small Qwen/Qwen3-0.6B org/name-GGUF:Q4_K_M org/name-GGUF:Q8_0 qwen3:0.6b"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("ids\n%s\nwant\n%s", got, want)
	}
}
