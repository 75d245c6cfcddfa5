package bounded

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		limit int64
		ok    bool
	}{{5, true}, {100, true}, {4, false}, {0, false}} {
		b, err := ReadFile(path, tc.limit)
		switch {
		case tc.ok && (err != nil || string(b) != "12345"):
			t.Errorf("limit %d: %q, %v", tc.limit, b, err)
		case !tc.ok && (!errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), path)):
			t.Errorf("limit %d: error %v, want ErrTooLarge naming the file", tc.limit, err)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// endless is a stream that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) { return len(p), nil }

func TestRead(t *testing.T) {
	if b, err := Read(strings.NewReader("abc"), 3); err != nil || string(b) != "abc" {
		t.Errorf("at the limit: %q, %v", b, err)
	}
	if _, err := Read(strings.NewReader("abcd"), 3); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the limit: %v, want ErrTooLarge", err)
	}
	if _, err := Read(endless{}, 1<<10); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a stream that never ends: %v, want ErrTooLarge", err)
	}
}
