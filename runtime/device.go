package runtime

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mlxrun/mlx/runtime/gpu/vulkan"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// The devices of Options.Device.
const (
	// DeviceAuto uses a discrete GPU when there is one, else the CPU.
	DeviceAuto = "auto"
	// DeviceCPU computes everything on the CPU.
	DeviceCPU = "cpu"
	// DeviceVulkan computes on the Vulkan device what it has kernels for,
	// and the rest on the CPU; Load fails when there is no Vulkan device.
	DeviceVulkan = "vulkan"
)

// gpu is an offload of the pool's matrix–vector products to a Vulkan device.
type gpu struct {
	dev     *vulkan.Device
	mv      *vulkan.MatVec
	mu      sync.Mutex
	refused map[*kernels.Matrix]bool // matrices the device failed to take
	took    atomic.Int64             // products computed on the device
}

// openDevice opens the device that name asks for: nil for the CPU.
func openDevice(name string) (*gpu, error) {
	switch name {
	case "", DeviceCPU:
		return nil, nil
	case DeviceAuto, DeviceVulkan:
	default:
		return nil, fmt.Errorf("%w: device %q (want auto, cpu or vulkan)", ErrOptions, name)
	}
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
	mv, err := vulkan.NewMatVec(dev)
	if err != nil {
		dev.Close()
		return nil, fmt.Errorf("%w: --device %s: %w", ErrOptions, name, err)
	}
	return &gpu{dev: dev, mv: mv, refused: map[*kernels.Matrix]bool{}}, nil
}

// MatVec computes the product on the device when it has a kernel for w's
// format; a matrix the device fails on once stays on the CPU.
func (g *gpu) MatVec(w *kernels.Matrix, x, out []float32) bool {
	if !g.mv.Supports(w.Type) {
		return false
	}
	g.mu.Lock()
	refused := g.refused[w]
	g.mu.Unlock()
	if refused {
		return false
	}
	if err := g.mv.MatVec(w, x, out); err != nil {
		g.mu.Lock()
		g.refused[w] = true
		g.mu.Unlock()
		return false
	}
	g.took.Add(1)
	return true
}

// describe names the device and what stays on the CPU, for Info.
func (g *gpu) describe() (device, fallback string) {
	if g == nil {
		return "CPU", ""
	}
	info := g.dev.Info()
	formats := make([]string, 0, 2)
	for _, t := range vulkan.Formats() {
		formats = append(formats, t.String())
	}
	device = fmt.Sprintf("Vulkan %s (%v)", info.Name, info.Type)
	fallback = "on the Vulkan device: the matrix–vector products of decoding one sequence with " +
		strings.Join(formats, " or ") + " weights; on the CPU: prompt batches, attention, norms, RoPE, " +
		"activations, mixtures of experts, sampling and the weights of other formats"
	return device, fallback
}

// close frees the device.
func (g *gpu) close() {
	if g != nil {
		g.mv.Close()
		g.dev.Close()
	}
}
