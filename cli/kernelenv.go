package cli

import (
	"fmt"
	"os"

	"github.com/mlxrun/mlx/runtime/kernels"
)

// applyKernelEnv applies the kernel choices of the environment before a
// model loads: MLX_CPU caps the instruction set of the kernels (generic,
// avx2, avx512, avx512vnni on amd64; generic, neon, dotprod on arm64; or
// native), so that a lower level's kernels can be run and timed on a CPU
// that has more; MLX_NOASM=1 turns the assembly kernels off;
// MLX_AFFINE_INT8=0 keeps MLX 4-bit weights on the float kernels, within
// 1e-3 of MLX's own results (by default they run on the Q4_0 integer
// kernels with 8-bit activations, as llama.cpp computes Q4_0); and
// MLX_HUGEPAGES=1 puts the repacked weights on huge pages (Linux).
func applyKernelEnv() error {
	if level := os.Getenv("MLX_CPU"); level != "" {
		if err := kernels.Cap(level); err != nil {
			return fmt.Errorf("MLX_CPU=%s: %w", level, err)
		}
	}
	if os.Getenv("MLX_NOASM") == "1" {
		kernels.SetReference(true)
	}
	kernels.SetAffineInt8(os.Getenv("MLX_AFFINE_INT8") != "0")
	kernels.SetHugePages(os.Getenv("MLX_HUGEPAGES") == "1")
	return nil
}
