// Package vulkan runs the compute kernels of runtime/gpu/shaders on a
// Vulkan device, from pure Go: libvulkan is opened at run time through
// purego, without cgo.
//
// The driver is compiled only with the build tag vulkan (on Linux and
// macOS), because purego makes the binary link libc dynamically; without
// the tag Open returns ErrUnavailable and the binary stays static.
//
// A Device holds one compute queue. Buffers are host-visible storage
// buffers; a Kernel is a compute pipeline made from embedded SPIR-V with
// storage buffers and push constants; Run records a list of dispatches in
// one command buffer, submits it and waits on a fence. MatMul is the
// matrix products of the model's weights.
package vulkan

import "errors"

// ErrUnavailable is wrapped by Open's error when this build has no Vulkan
// driver, libvulkan cannot be loaded, or no device has a compute queue.
var ErrUnavailable = errors.New("vulkan unavailable")

// ErrVulkan is wrapped by the errors of failed Vulkan calls.
var ErrVulkan = errors.New("vulkan call failed")

// DeviceType is the kind of a physical device, as Vulkan reports it.
type DeviceType uint32

// The physical device types of VkPhysicalDeviceType.
const (
	Other DeviceType = iota
	Integrated
	Discrete
	Virtual
	CPU
)

// String names t.
func (t DeviceType) String() string {
	switch t {
	case Integrated:
		return "integrated GPU"
	case Discrete:
		return "discrete GPU"
	case Virtual:
		return "virtual GPU"
	case CPU:
		return "CPU, a software driver"
	}
	return "other"
}

// Info describes a physical device.
type Info struct {
	Name   string
	Type   DeviceType
	Memory uint64 // bytes in its device-local heaps
}

// maxBuffer bounds one buffer (4 GiB, the range a shader's 32-bit byte
// offsets can address).
const maxBuffer = 4 << 30
