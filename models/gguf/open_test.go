package gguf

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.gguf")
	m := sampleModel(3)
	if err := os.WriteFile(path, m.build(), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != path || len(f.Tensors) != len(m.tensors) {
		t.Fatalf("Path %q, %d tensors", f.Path, len(f.Tensors))
	}
	a, _ := f.Tensor("a")
	if !bytes.Equal(f.TensorData(a), m.tensors[0].data) {
		t.Error("mapped tensor data differs")
	}
	for range 2 {
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if f.TensorData(a) != nil {
		t.Error("TensorData after Close")
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	full := sampleModel(3).build()
	tests := []struct {
		name, path string
		want       error // nil: only the message is checked
		msg        string
	}{
		{"directory", dir, nil, "is a directory"},
		{"missing", filepath.Join(dir, "missing.gguf"), fs.ErrNotExist, "no such file"},
		{"empty", write("empty.gguf", nil), ErrFormat, "file is empty"},
		{"text", write("notes.txt", []byte("just some text\n")), ErrFormat, "not a GGUF file"},
		{"truncated", write("cut.gguf", full[:len(full)-1]), ErrFormat, `tensor "c": file is truncated: data [`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Open(tc.path)
			if err == nil {
				f.Close()
				t.Fatal("opened")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("error %q does not wrap %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.path) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q: want the path and %q", err, tc.msg)
			}
		})
	}
}
