//go:build vulkan

package runtime

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mlxrun/mlx/runtime/gpu/vulkan"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// gpu is an offload of the pool's matrix products to a Vulkan device.
type gpu struct {
	dev     *vulkan.Device
	mm      *vulkan.MatMul
	mu      sync.Mutex
	refused map[*kernels.Matrix]bool // matrices the device failed to take
	took    atomic.Int64             // products computed on the device
	batched atomic.Int64             // those of them with several vectors
}

// openGPU opens the Vulkan device for auto or vulkan: nil, for auto, when
// there is none or it is not a discrete GPU.
func openGPU(name string) (*gpu, error) {
	dev, err := vulkan.Open()
	if err != nil {
		if name == DeviceAuto {
			return nil, nil
		}
		return nil, fmt.Errorf("%w: --device vulkan: %w", ErrOptions, err)
	}
	if name == DeviceAuto && dev.Info().Type != vulkan.Discrete {
		dev.Close()
		return nil, nil
	}
	mm, err := vulkan.NewMatMul(dev)
	if err != nil {
		dev.Close()
		return nil, fmt.Errorf("%w: --device %s: %w", ErrOptions, name, err)
	}
	return &gpu{dev: dev, mm: mm, refused: map[*kernels.Matrix]bool{}}, nil
}

// MatMul computes the product of w with n vectors on the device when it has
// a kernel for w's format; a matrix the device fails on once stays on the
// CPU.
func (g *gpu) MatMul(w *kernels.Matrix, x []float32, n int, out []float32) bool {
	if !g.mm.Supports(w.Type) {
		return false
	}
	g.mu.Lock()
	refused := g.refused[w]
	g.mu.Unlock()
	if refused {
		return false
	}
	if err := g.mm.MatMul(w, x, n, out); err != nil {
		g.mu.Lock()
		g.refused[w] = true
		g.mu.Unlock()
		return false
	}
	g.took.Add(1)
	if n > 1 {
		g.batched.Add(1)
	}
	return true
}

// describe names the device and what stays on the CPU, for Info.
func (g *gpu) describe() (device, fallback string) {
	if g == nil {
		return "CPU", ""
	}
	info := g.dev.Info()
	var formats []string
	for _, t := range vulkan.Formats() {
		formats = append(formats, t.String())
	}
	device = fmt.Sprintf("Vulkan %s (%v)", info.Name, info.Type)
	fallback = "on the Vulkan device: the matrix products of decoding and of prompt batches with " +
		strings.Join(formats, ", ") + " weights; on the CPU: attention, norms, RoPE, " +
		"activations, expert routing, sampling and the weights of other formats"
	return device, fallback
}

// close frees the device.
func (g *gpu) close() {
	if g != nil {
		g.mm.Close()
		g.dev.Close()
	}
}
