package kernels

import (
	"fmt"
	"os"
	"testing"
)

// TestMain caps the kernels at the instruction-set level named by MLX_CPU
// (as the cli does for the binary), so that the whole package runs on a
// lower level's kernels: MLX_CPU=avx2 go test ./runtime/kernels; and
// MLX_HUGEPAGES=1 puts the packed copies on huge pages.
func TestMain(m *testing.M) {
	if level := os.Getenv("MLX_CPU"); level != "" {
		if err := Cap(level); err != nil {
			fmt.Fprintln(os.Stderr, "MLX_CPU:", err)
			os.Exit(2)
		}
	}
	SetHugePages(os.Getenv("MLX_HUGEPAGES") == "1")
	os.Exit(m.Run())
}
