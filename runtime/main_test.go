package runtime

import (
	"fmt"
	"os"
	"testing"

	"github.com/mlxrun/mlx/runtime/kernels"
)

// TestMain caps the kernels at the instruction-set level named by MLX_CPU
// (as the cli does for the binary), so that the engine's tests run on a
// lower level's kernels: MLX_CPU=avx2 go test ./runtime.
func TestMain(m *testing.M) {
	if level := os.Getenv("MLX_CPU"); level != "" {
		if err := kernels.Cap(level); err != nil {
			fmt.Fprintln(os.Stderr, "MLX_CPU:", err)
			os.Exit(2)
		}
	}
	os.Exit(m.Run())
}
