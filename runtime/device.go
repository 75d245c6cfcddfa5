package runtime

import "fmt"

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

// openDevice opens the device that name asks for: nil for the CPU. Only a
// build with the vulkan tag (device_vulkan.go) has a GPU to open; without
// it, auto is the CPU and vulkan an error.
func openDevice(name string) (*gpu, error) {
	switch name {
	case "", DeviceCPU:
		return nil, nil
	case DeviceAuto, DeviceVulkan:
		return openGPU(name)
	default:
		return nil, fmt.Errorf("%w: device %q (want auto, cpu or vulkan)", ErrOptions, name)
	}
}
