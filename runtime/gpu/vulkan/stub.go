//go:build !vulkan || !(linux || darwin)

package vulkan

import "fmt"

// Device is a Vulkan device; this build has none, and Open fails.
type Device struct{}

// Buffer is a storage buffer on a Device.
type Buffer struct{}

// Kernel is a compute pipeline.
type Kernel struct{}

// Open reports that this build has no Vulkan driver.
func Open() (*Device, error) {
	return nil, fmt.Errorf("%w: this mlx was built without the vulkan build tag (go build -tags vulkan)", ErrUnavailable)
}

// Info describes the device.
func (d *Device) Info() Info { return Info{} }

// Close releases the device.
func (d *Device) Close() {}

// NewBuffer fails: there is no device.
func (d *Device) NewBuffer(size int) (*Buffer, error) { return nil, ErrUnavailable }

// NewKernel fails: there is no device.
func (d *Device) NewKernel(spirv []byte, buffers, pushWords int) (*Kernel, error) {
	return nil, ErrUnavailable
}

// Run fails: there is no device.
func (d *Device) Run(ds ...Dispatch) error { return ErrUnavailable }

// Bytes is the buffer's memory.
func (b *Buffer) Bytes() []byte { return nil }

// Free releases the buffer.
func (b *Buffer) Free() {}

// Free releases the kernel.
func (k *Kernel) Free() {}
