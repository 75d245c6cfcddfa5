package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/runtime/kernels"
)

// TestKernelEnvCap checks that MLX_CPU caps the kernels, and that a name
// the kernels do not know is an error that names the variable.
func TestKernelEnvCap(t *testing.T) {
	t.Cleanup(func() {
		if err := kernels.Cap("native"); err != nil {
			t.Error(err)
		}
	})
	t.Setenv("MLX_CPU", "generic")
	if err := applyKernelEnv(); err != nil {
		t.Fatal(err)
	}
	if got := kernels.Implementation(); got != "generic" {
		t.Errorf("MLX_CPU=generic: kernels %q", got)
	}
	t.Setenv("MLX_CPU", "avx9")
	err := applyKernelEnv()
	if !errors.Is(err, kernels.ErrLevel) || !strings.Contains(err.Error(), "MLX_CPU=avx9") {
		t.Errorf("MLX_CPU=avx9: %v, want an error naming MLX_CPU", err)
	}
}

// TestKernelEnvHugePages checks that MLX_HUGEPAGES=1, and only that value,
// turns huge pages for the packed weights on.
func TestKernelEnvHugePages(t *testing.T) {
	t.Cleanup(func() { kernels.SetHugePages(false) })
	for _, tc := range []struct {
		env  string
		want bool
	}{{"1", true}, {"", false}, {"0", false}, {"yes", false}} {
		t.Setenv("MLX_HUGEPAGES", tc.env)
		if err := applyKernelEnv(); err != nil {
			t.Fatal(err)
		}
		if got := kernels.HugePages(); got != tc.want {
			t.Errorf("MLX_HUGEPAGES=%q: huge pages %v, want %v", tc.env, got, tc.want)
		}
	}
}
