//go:build vulkan

package runtime

import (
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/mlxrun/mlx/runtime/gpu/vulkan"
)

// checkDiscrete fails the test when auto opened g, a GPU that is not a
// discrete one.
func checkDiscrete(t *testing.T, g *gpu) {
	t.Helper()
	if typ := g.dev.Info().Type; typ != vulkan.Discrete {
		t.Errorf("device auto opened a %v, want a discrete GPU or the CPU", typ)
	}
}

// checkOnDevice fails the test when e has a GPU that computed none of the
// products of a prompt's batch, so that a silent fallback to the CPU does
// not pass for the GPU's results.
func checkOnDevice(t *testing.T, e *Engine) {
	t.Helper()
	if e.gpu == nil {
		return
	}
	took, batched := e.gpu.took.Load(), e.gpu.batched.Load()
	if batched == 0 {
		t.Errorf("the GPU computed %d products, none of them of a prompt's batch", took)
	}
	t.Logf("%d products on the GPU, %d of them batched", took, batched)
}

// loadOnVulkan loads a fixture with Device vulkan, or skips when there is no
// Vulkan device (fails with MLX_REQUIRE_VULKAN set).
func loadOnVulkan(t *testing.T, elem ...string) *Engine {
	t.Helper()
	if _, err := vulkan.Open(); err != nil {
		if os.Getenv("MLX_REQUIRE_VULKAN") != "" {
			t.Fatalf("MLX_REQUIRE_VULKAN is set: %v", err)
		}
		if _, err := openDevice(DeviceVulkan); !errors.Is(err, ErrOptions) || !errors.Is(err, vulkan.ErrUnavailable) {
			t.Errorf("device vulkan without a device: %v, want ErrOptions and vulkan.ErrUnavailable", err)
		}
		t.Skipf("no Vulkan device: %v", err)
	}
	return loadWith(t, Options{Device: DeviceVulkan}, elem...)
}

// TestDeviceVulkanDecodes checks that decoding on the Vulkan device gives
// the CPU's greedy tokens for F16 weights (both sum float32 activations),
// and that the products of the prompt and of decoding ran on the device.
func TestDeviceVulkanDecodes(t *testing.T) {
	for _, file := range []string{"llama-tiny-F16.gguf", "llama-tiny-Q8_0.gguf"} {
		t.Run(file, func(t *testing.T) {
			gpu := loadOnVulkan(t, "gguf", file)
			cpu := loadWith(t, Options{}, "gguf", file)
			if info := gpu.Info(); info.Device == "CPU" || info.Offload == "" {
				t.Errorf("Info: device %q, offload %q; want the Vulkan device and what it computes", info.Device, info.Offload)
			}
			if info := cpu.Info(); info.Device != "CPU" || info.Offload != "" {
				t.Errorf("CPU engine Info: device %q, offload %q", info.Device, info.Offload)
			}
			req := Request{Prompt: []int32{1, 415, 2936, 9060, 285, 1142}, Params: greedy(12)}
			got, _, _, _ := collect(t, gpu, req)
			want, _, _, _ := collect(t, cpu, req)
			if n := gpu.gpu.took.Load(); n == 0 {
				t.Fatal("no product ran on the Vulkan device")
			}
			if n := gpu.gpu.batched.Load(); n == 0 {
				t.Fatal("no product of the prompt's batch ran on the Vulkan device")
			}
			if file == "llama-tiny-F16.gguf" && !slices.Equal(got, want) {
				t.Errorf("Vulkan decoded %v, the CPU %v", got, want)
			}
			t.Logf("%d products on the device, %d of them batched; tokens %v (CPU %v)", gpu.gpu.took.Load(), gpu.gpu.batched.Load(), got, want)
		})
	}
}
