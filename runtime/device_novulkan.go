//go:build !vulkan

package runtime

import (
	"fmt"

	"github.com/mlxrun/mlx/runtime/kernels"
)

// gpu is the GPU offload, which a build without the vulkan tag does not
// have: openGPU never makes one, and no GPU code is linked.
type gpu struct{}

// openGPU reports that this build has no GPU: auto is the CPU.
func openGPU(name string) (*gpu, error) {
	if name == DeviceAuto {
		return nil, nil
	}
	return nil, fmt.Errorf("%w: --device vulkan: this mlx was built without the vulkan build tag (go build -tags vulkan)", ErrOptions)
}

// MatMul takes no product.
func (g *gpu) MatMul(*kernels.Matrix, []float32, int, []float32) bool { return false }

// describe names the CPU.
func (g *gpu) describe() (device, fallback string) { return "CPU", "" }

// close does nothing.
func (g *gpu) close() {}
