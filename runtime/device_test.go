package runtime

import (
	"errors"
	"os"
	"testing"
)

// TestDeviceOption checks the device names: an unknown one is refused, cpu
// opens nothing, and auto opens only a discrete GPU (or nothing).
func TestDeviceOption(t *testing.T) {
	if _, err := openDevice("tpu"); !errors.Is(err, ErrOptions) {
		t.Errorf("device tpu: %v, want ErrOptions", err)
	}
	for _, name := range []string{"", DeviceCPU} {
		if g, err := openDevice(name); g != nil || err != nil {
			t.Errorf("device %q: %v, %v; want the CPU", name, g, err)
		}
	}
	g, err := openDevice(DeviceAuto)
	if err != nil {
		t.Fatalf("device auto: %v", err)
	}
	if g != nil {
		defer g.close()
		checkDiscrete(t, g)
	}
}

// testDevice is the device that the reference tests load their models on:
// $MLX_DEVICE (CI sets vulkan on lavapipe), else the CPU.
func testDevice() string { return os.Getenv("MLX_DEVICE") }
