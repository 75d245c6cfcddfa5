package hub

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func pull(t *testing.T, c *Client, ref string) *Snapshot {
	t.Helper()
	r, err := ParseRef(ref)
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Pull(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestList(t *testing.T) {
	srv := startHub(t)
	st := safetensorsRepo(1000)
	gg := map[string][]byte{"m-Q4_K_M.gguf": randomBytes(300, 1), "m-Q8_0.gguf": randomBytes(500, 2)}
	mlx := map[string][]byte{
		"config.json":       []byte(`{"quantization":{"group_size":64,"bits":4}}`),
		"model.safetensors": randomBytes(700, 3)}
	srv.Publish("org/model", st)
	srv.Publish("org/m-GGUF", gg)
	srv.Publish("mlx-community/m-4bit", mlx)
	c := newClient(t, srv, nil)
	pull(t, c, "org/model")
	pull(t, c, "org/m-GGUF:Q4_K_M")
	pull(t, c, "org/m-GGUF:Q8_0")
	pull(t, c, "mlx-community/m-4bit")
	models, err := c.Cache().List()
	if err != nil {
		t.Fatal(err)
	}
	size := func(files map[string][]byte, names ...string) (n int64) {
		for _, f := range names {
			n += int64(len(files[f]))
		}
		return n
	}
	want := []Model{
		{Name: "mlx-community/m-4bit", Format: FormatMLX, Quant: "4bit", Size: size(mlx, "config.json", "model.safetensors")},
		{Name: "org/m-GGUF:Q4_K_M", Format: FormatGGUF, Quant: "Q4_K_M", Size: size(gg, "m-Q4_K_M.gguf")},
		{Name: "org/m-GGUF:Q8_0", Format: FormatGGUF, Quant: "Q8_0", Size: size(gg, "m-Q8_0.gguf")},
		{Name: "org/model", Format: FormatSafetensors, Quant: "BF16",
			Size: size(st, "config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json")},
	}
	if len(models) != len(want) {
		t.Fatalf("%d models: %+v", len(models), models)
	}
	for i, m := range models {
		w := want[i]
		if m.Name != w.Name || m.Format != w.Format || m.Quant != w.Quant || m.Size != w.Size || m.Revision != "main" || m.Modified.IsZero() {
			t.Errorf("model %d = %+v, want %+v", i, m, w)
		}
		if p, err := c.Resolve(context.Background(), m.Name); err != nil || p != m.Path {
			t.Errorf("Resolve(%s) = %s, %v; want %s", m.Name, p, err, m.Path)
		}
	}
}

// TestRemoveSharedBlobs removes an old revision whose config the new one
// shares: only the old weights are freed.
func TestRemoveSharedBlobs(t *testing.T) {
	srv := startHub(t)
	v1 := safetensorsRepo(1000)
	old := srv.Publish("org/model", v1)
	c := newClient(t, srv, nil)
	pull(t, c, "org/model")
	v2 := safetensorsRepo(0)
	v2["model.safetensors"] = randomBytes(2000, 9)
	srv.Publish("org/model", v2)
	pull(t, c, "org/model")
	before := blobNames(t, c.Cache(), "org/model")
	res, err := c.Cache().Remove(Ref{Repo: "org/model", Revision: old})
	if err != nil {
		t.Fatal(err)
	}
	after := blobNames(t, c.Cache(), "org/model")
	gone := slices.DeleteFunc(before, func(b string) bool { return slices.Contains(after, b) })
	if !slices.Equal(gone, []string{sha256Hex(v1["model.safetensors"])}) || res.Freed != int64(len(v1["model.safetensors"])) || res.Blobs != 1 || res.All {
		t.Fatalf("removed %+v, blobs gone %v", res, gone)
	}
	if _, err := c.Cache().Find(Ref{Repo: "org/model"}); err != nil {
		t.Fatalf("the current revision broke: %v", err)
	}
	res, err = c.Cache().Remove(Ref{Repo: "org/model"})
	if err != nil || !res.All || !slices.Equal(res.Refs, []string{"main"}) {
		t.Fatalf("remove all: %+v, %v", res, err)
	}
	if _, err := os.Stat(c.Cache().RepoDir("org/model")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the repo folder is still there")
	}
	if _, err := c.Cache().Remove(Ref{Repo: "org/model"}); !errors.Is(err, ErrNotCached) {
		t.Fatalf("removing it again: %v", err)
	}
}

func TestRemoveQuant(t *testing.T) {
	srv := startHub(t)
	files := map[string][]byte{"m-Q4_K_M.gguf": randomBytes(300, 1), "m-Q8_0.gguf": randomBytes(500, 2)}
	srv.Publish("org/m", files)
	c := newClient(t, srv, nil)
	pull(t, c, "org/m:Q4_K_M")
	s := pull(t, c, "org/m:Q8_0")
	res, err := c.Cache().Remove(Ref{Repo: "org/m", Quant: "Q8_0"})
	if err != nil || res.Freed != int64(len(files["m-Q8_0.gguf"])) || res.Files != 1 || len(res.Snapshots) != 0 {
		t.Fatalf("removed %+v, %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "m-Q4_K_M.gguf")); err != nil {
		t.Fatal("the other quantization went too")
	}
	if _, err := c.Cache().Remove(Ref{Repo: "org/m", Quant: "Q8_0"}); !errors.Is(err, ErrNotCached) {
		t.Fatalf("removing it again: %v", err)
	}
}
