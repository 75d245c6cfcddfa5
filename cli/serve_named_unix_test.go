//go:build unix

package cli

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestServeChecksNamedModels: a model given on the command line that is
// neither a file, a folder nor a hub reference stops mlx serve before it
// listens, with "no such file"; a FIFO is refused without being opened.
func TestServeChecksNamedModels(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.gguf")
	bad := []string{filepath.Join(dir, "missing.gguf")}
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		bad = append(bad, fifo)
	}
	for _, m := range bad {
		if err := checkNamed([]string{m}); err == nil {
			t.Errorf("%s: accepted", m)
		}
	}
	if err := checkNamed(bad[:1]); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("a missing file: %v", err)
	}
	if err := checkNamed([]string{dir, "org/name", "qwen3:0.6b"}); err != nil {
		t.Errorf("a folder and hub references: %v", err)
	}
}
