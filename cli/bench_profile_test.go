package cli

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// TestBenchCPUProfile checks that --cpuprofile leaves a profile of the
// timed tests (runtime/pprof writes gzipped protocol buffers), and that a
// file that cannot be made is an error.
func TestBenchCPUProfile(t *testing.T) {
	model := fixture.Path(t, "gguf", "llama-tiny-Q8_0.gguf")
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	if _, err := runWithInput(t, "", "bench", "-p", "16", "-n", "4", "-r", "1", "-t", "1", "--read-mib", "0", "--cpuprofile", path, model); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("profile: %v", err)
	}
	if b, err := io.ReadAll(z); err != nil || len(b) == 0 {
		t.Errorf("profile: %d bytes, %v", len(b), err)
	}
	bad := filepath.Join(t.TempDir(), "missing", "cpu.pprof")
	if _, err := runWithInput(t, "", "bench", "-p", "8", "-n", "0", "-r", "1", "--cpuprofile", bad, model); err == nil {
		t.Error("a profile in a missing directory: no error")
	}
}
