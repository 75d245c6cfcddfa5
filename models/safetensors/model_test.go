package safetensors

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeFile writes data to dir/name and returns the path.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// writeIndex writes an index with the given weight map.
func writeIndex(t *testing.T, dir string, weights map[string]string) string {
	t.Helper()
	data, err := json.Marshal(map[string]any{"metadata": map[string]any{"total_size": 1}, "weight_map": weights})
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, dir, IndexFile, data)
}

// shardedDir makes a two-shard model directory.
func shardedDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, dir, "model-00001-of-00002.safetensors", build(t, map[string]string{"format": "mlx"},
		spec{"a.weight", "U32", []int{4, 2}}, spec{"a.scales", "BF16", []int{4, 1}}))
	writeFile(t, dir, "model-00002-of-00002.safetensors", build(t, map[string]string{"format": "pt", "extra": "x"},
		spec{"b.weight", "F16", []int{3}}))
	writeIndex(t, dir, map[string]string{
		"a.weight": "model-00001-of-00002.safetensors",
		"a.scales": "model-00001-of-00002.safetensors",
		"b.weight": "model-00002-of-00002.safetensors",
	})
	return dir
}

func TestOpenDirSharded(t *testing.T) {
	dir := shardedDir(t)
	m, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if got := strings.Join(m.Names(), ","); got != "a.scales,a.weight,b.weight" {
		t.Fatalf("names %s", got)
	}
	b, _ := m.Tensor("b.weight")
	if b.DType != F16 || filepath.Base(b.File) != "model-00002-of-00002.safetensors" || len(b.Data) != 6 {
		t.Fatalf("b.weight %+v", b)
	}
	if got := m.Metadata(); !maps.Equal(got, map[string]string{"format": "mlx", "extra": "x"}) {
		t.Fatalf("metadata %v", got)
	}
	if len(m.Files()) != 2 || m.Dir != dir {
		t.Fatalf("files %v, dir %s", m.Files(), m.Dir)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal("second close:", err)
	}
}

// TestOpenDirSymlinkedShards follows the Hugging Face cache layout, where the
// snapshot's files are links to blobs elsewhere.
func TestOpenDirSymlinkedShards(t *testing.T) {
	blobs, snap := t.TempDir(), t.TempDir()
	blob := writeFile(t, blobs, "0123abcd", build(t, nil, spec{"w", "I8", []int{7}}))
	if err := os.Symlink(blob, filepath.Join(snap, "shard.safetensors")); err != nil {
		t.Skip("no symlinks:", err)
	}
	writeIndex(t, snap, map[string]string{"w": "shard.safetensors"})
	m, err := OpenDir(snap)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if w, ok := m.Tensor("w"); !ok || w.Elements() != 7 {
		t.Fatalf("w: %+v", w)
	}
}

func TestOpenDirSingle(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, SingleFile, build(t, map[string]string{"format": "pt"}, spec{"x", "I32", []int{2}}, spec{"y", "U8", []int{3}}))
	m, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if !slices.Equal(m.Names(), []string{"x", "y"}) || len(m.Files()) != 1 || m.Metadata()["format"] != "pt" {
		t.Fatalf("names %v files %v", m.Names(), m.Files())
	}
}

func TestOpenDirBad(t *testing.T) {
	tests := []struct {
		name    string
		weights map[string]string // nil: write index text instead
		index   string
		want    error
		msg     string
	}{
		{"parent", map[string]string{"w": "../model.safetensors"}, "", ErrFormat, "not a plain file name"},
		{"absolute", map[string]string{"w": "/etc/passwd"}, "", ErrFormat, "not a plain file name"},
		{"subdir", map[string]string{"w": "sub/model.safetensors"}, "", ErrFormat, "not a plain file name"},
		{"backslash", map[string]string{"w": `..\model.safetensors`}, "", ErrFormat, "not a plain file name"},
		{"dot", map[string]string{"w": "."}, "", ErrFormat, "not a plain file name"},
		{"empty name", map[string]string{"w": ""}, "", ErrFormat, "not a plain file name"},
		{"missing shard", map[string]string{"w": "gone.safetensors"}, "", ErrFormat, "shard gone.safetensors is missing"},
		{"tensor not in shard", map[string]string{"nope": "ok.safetensors"}, "", ErrFormat, `tensor "nope" in ok.safetensors`},
		{"bad shard", map[string]string{"w": "bad.safetensors"}, "", ErrFormat, "bad.safetensors"},
		{"empty map", map[string]string{}, "", ErrFormat, "no weight_map"},
		{"invalid JSON", nil, `{"weight_map": {`, ErrFormat, "index JSON"},
		{"map of numbers", nil, `{"weight_map": {"w": 1}}`, ErrFormat, "index JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "ok.safetensors", build(t, nil, spec{"w", "F32", []int{1}}))
			writeFile(t, dir, "bad.safetensors", []byte("not a safetensors file"))
			index := writeFile(t, dir, IndexFile, []byte(tt.index))
			if tt.weights != nil {
				index = writeIndex(t, dir, tt.weights)
			}
			_, err := OpenDir(dir)
			checkErr(t, err, tt.want, tt.msg)
			if !strings.Contains(err.Error(), dir) {
				t.Errorf("error %q does not name the directory's file", err)
			}
			if _, err2 := OpenIndex(index); err2 == nil || err2.Error() != err.Error() {
				t.Errorf("OpenIndex: %v, OpenDir: %v", err2, err)
			}
		})
	}
}

func TestOpenDirEmpty(t *testing.T) {
	dir := t.TempDir()
	_, err := OpenDir(dir)
	checkErr(t, err, ErrNotFound, SingleFile)
	if _, err := Open(filepath.Join(dir, "none.safetensors")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Open missing file: %v", err)
	}
}
