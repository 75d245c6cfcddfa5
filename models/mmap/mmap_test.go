package mmap

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	want := []byte("hello, mapped world")
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(m.Bytes()) != string(want) || m.Len() != len(want) {
		t.Fatalf("got %q", m.Bytes())
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal("second close:", err)
	}
}

func TestOpenEmptyAndMissing(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "empty")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Open(p)
	if err != nil || m.Len() != 0 {
		t.Fatalf("empty: %v %d", err, m.Len())
	}
	if _, err := Open(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("missing file opened")
	}
	if _, err := Open(dir); err == nil {
		t.Fatal("directory opened")
	}
}
