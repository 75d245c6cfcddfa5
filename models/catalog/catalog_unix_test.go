//go:build unix

package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestResolveRefusesTheRest(t *testing.T) {
	c, root := fixture(t, Options{})
	fifo := filepath.Join(root, "fifo.gguf")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	outside := write(t, filepath.Join(root, "outside.gguf"), "GGUF")
	for _, name := range []string{"/etc/passwd", "/etc", "/", fifo, outside, "org/absent", "qwen3:4b",
		"org/name-GGUF:Q2_K", filepath.Join(root, "models", "notes.txt"), "../../etc/passwd", "", strings.Repeat("a", 5000), "a\x00b"} {
		start := time.Now()
		m, err := c.Resolve(name)
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("Resolve(%.40q) = %+v, %v; want ErrNotFound", name, m, err)
			continue
		}
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Errorf("Resolve(%.40q) took %v", name, d)
		}
		if msg := err.Error(); strings.Contains(msg, "exist") || strings.Contains(msg, "director") || strings.Contains(msg, "permission") {
			t.Errorf("Resolve(%.40q): the message tells about the file system: %s", name, msg)
		}
	}
}

func TestAllowPaths(t *testing.T) {
	c, root := fixture(t, Options{AllowPaths: true})
	outside := write(t, filepath.Join(root, "outside.gguf"), "GGUF")
	m, err := c.Resolve(filepath.Join(root, ".", "outside.gguf"))
	if err != nil || m.ID != outside || m.Path != outside {
		t.Errorf("an outside file: %+v, %v", m, err)
	}
	fifo := filepath.Join(root, "fifo.gguf")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		if _, err := c.Resolve(fifo); !errors.Is(err, ErrNotFound) {
			t.Errorf("a FIFO: %v", err)
		}
	}
	dir := filepath.Join(root, "bad-model")
	write(t, filepath.Join(dir, "config.json"), "{}")
	if err := syscall.Mkfifo(filepath.Join(dir, "tokenizer.json"), 0o600); err == nil {
		if _, err := c.Resolve(dir); !errors.Is(err, ErrNotFound) {
			t.Errorf("a folder holding a FIFO: %v", err)
		}
	}
	for _, name := range []string{"/etc/passwd", "/etc"} {
		if _, err := c.Resolve(name); !errors.Is(err, ErrNotFound) {
			t.Errorf("Resolve(%q) with AllowPaths: %v", name, err)
		}
	}
}

// TestSwappedForFIFO: a listed model whose file became a FIFO after the
// listing is refused, not opened.
func TestSwappedForFIFO(t *testing.T) {
	c, root := fixture(t, Options{})
	if _, err := c.Resolve("small"); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(root, "models", "small.gguf")
	if err := os.Remove(small); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(small, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, name := range []string{"small", small} {
		if m, err := c.Resolve(name); !errors.Is(err, ErrNotFound) {
			t.Errorf("Resolve(%s) after the swap = %+v, %v", name, m, err)
		}
	}
}
