//go:build !vulkan

package runtime

import (
	"errors"
	"strings"
	"testing"
)

// checkDiscrete is never reached: auto opens nothing in a build without
// the vulkan tag.
func checkDiscrete(t *testing.T, _ *gpu) {
	t.Helper()
	t.Error("device auto opened a GPU in a build without one")
}

// checkOnDevice has nothing to check in a build without the vulkan tag:
// every product runs on the CPU.
func checkOnDevice(*testing.T, *Engine) {}

// TestDeviceWithoutVulkanTag checks that a build without the vulkan tag
// answers device vulkan with an error that says how to build one, and
// auto with the CPU.
func TestDeviceWithoutVulkanTag(t *testing.T) {
	_, err := openDevice(DeviceVulkan)
	if !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), "-tags vulkan") {
		t.Errorf("device vulkan: %v, want ErrOptions saying to build with -tags vulkan", err)
	}
	if g, err := openDevice(DeviceAuto); g != nil || err != nil {
		t.Errorf("device auto: %v, %v; want the CPU", g, err)
	}
}
