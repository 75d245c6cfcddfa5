package mmap

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// mapPages maps a new file of n pages, page i filled with byte i+1.
func mapPages(t *testing.T, n int) (*Map, []byte) {
	t.Helper()
	page := os.Getpagesize()
	want := make([]byte, n*page)
	for i := range want {
		want[i] = byte(i/page + 1)
	}
	p := filepath.Join(t.TempDir(), "pages")
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m, want
}

func TestMapRelease(t *testing.T) {
	page := os.Getpagesize()
	tests := []struct {
		name      string
		off, n    int
		wantBytes int // when the file is mapped
		wantErr   error
	}{
		{"whole pages", page, 2 * page, 2 * page, nil},
		{"partial ends kept", page / 2, 3 * page, 2 * page, nil},
		{"inside one page", 10, 100, 0, nil},
		{"empty", page, 0, 0, nil},
		{"negative offset", -1, 10, 0, ErrRange},
		{"past the end", 3 * page, 2 * page, 0, ErrRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, want := mapPages(t, 4)
			got, err := m.Release(tt.off, tt.n)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Release(%d, %d): err = %v, want %v", tt.off, tt.n, err, tt.wantErr)
			}
			if m.mapped && got != tt.wantBytes {
				t.Errorf("Release(%d, %d) gave back %d bytes, want %d", tt.off, tt.n, got, tt.wantBytes)
			}
			if !bytes.Equal(m.Bytes(), want) {
				t.Error("the bytes changed after Release")
			}
		})
	}
}

func TestRelease(t *testing.T) {
	page := os.Getpagesize()
	m, want := mapPages(t, 4)
	got, err := Release(m.Bytes()[page : 3*page])
	if err != nil {
		t.Fatal(err)
	}
	if m.mapped && got != 2*page {
		t.Errorf("Release of two pages of a mapping gave back %d bytes", got)
	}
	if !bytes.Equal(m.Bytes(), want) {
		t.Error("the bytes changed after Release")
	}
	heap := bytes.Repeat([]byte{7}, 4*page)
	if got, err := Release(heap); got != 0 || err != nil || heap[page] != 7 {
		t.Errorf("Release of heap memory: %d bytes, %v", got, err)
	}
	b := m.Bytes()
	m.Close()
	if got, err := Release(b[:page]); got != 0 || err != nil {
		t.Errorf("Release after Close: %d bytes, %v", got, err)
	}
}

// TestReleaseWhileOthersClose gives back pages of one mapping while other
// goroutines open and close mappings of their own (a model's weights are
// released while its tokenizer's reader closes the same file): under -race
// this checks the registry, and the bytes must still read the same.
func TestReleaseWhileOthersClose(t *testing.T) {
	m, want := mapPages(t, 8)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 500 {
			o, err := Open(m.path)
			if err != nil {
				t.Error(err)
				return
			}
			if err := o.Close(); err != nil {
				t.Error(err)
			}
		}
	}()
	for range 500 {
		if _, err := Release(m.Bytes()); err != nil {
			t.Fatal(err)
		}
	}
	<-done
	if !bytes.Equal(m.Bytes(), want) {
		t.Fatal("the released pages read differently")
	}
}
