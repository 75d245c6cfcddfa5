//go:build vulkan && (linux || darwin)

package vulkan

import (
	"fmt"
	"unsafe"
)

// Buffer is a storage buffer in host-visible, coherent memory, mapped for
// its whole life, so writes and reads are plain copies.
type Buffer struct {
	dev    *Device
	buffer uint64
	memory uint64
	data   []byte
}

// NewBuffer allocates a storage buffer of size bytes (rounded up to whole
// 32-bit words, which the kernels read).
func (d *Device) NewBuffer(size int) (*Buffer, error) {
	if size <= 0 || size > maxBuffer {
		return nil, fmt.Errorf("%w: buffer of %d bytes (want 1 to %d)", ErrVulkan, size, maxBuffer)
	}
	size = (size + 3) &^ 3
	b := &Buffer{dev: d}
	bi := &bufferCreateInfo{sType: stBufferCreateInfo, size: uint64(size), usage: bufferUsageStorage}
	if err := check("vkCreateBuffer", vk.CreateBuffer(d.device, bi, nil, &b.buffer)); err != nil {
		return nil, err
	}
	var req memoryRequirements
	vk.GetBufferMemoryRequirements(d.device, b.buffer, &req)
	ti, ok := d.memoryType(req.typeBits)
	if !ok {
		b.Free()
		return nil, fmt.Errorf("%w: no host-visible coherent memory for a storage buffer", ErrVulkan)
	}
	ai := &memoryAllocateInfo{sType: stMemoryAllocateInfo, size: req.size, typeIndex: ti}
	if err := check("vkAllocateMemory", vk.AllocateMemory(d.device, ai, nil, &b.memory)); err != nil {
		b.Free()
		return nil, err
	}
	if err := check("vkBindBufferMemory", vk.BindBufferMemory(d.device, b.buffer, b.memory, 0)); err != nil {
		b.Free()
		return nil, err
	}
	var p unsafe.Pointer
	if err := check("vkMapMemory", vk.MapMemory(d.device, b.memory, 0, wholeSize, 0, &p)); err != nil {
		b.Free()
		return nil, err
	}
	b.data = unsafe.Slice((*byte)(p), size)
	return b, nil
}

// memoryType picks a host-visible coherent type among allowed, device-local
// too when there is one.
func (d *Device) memoryType(allowed uint32) (uint32, bool) {
	const want = memHostVisible | memHostCoherent
	found, best := false, uint32(0)
	for i, t := range d.memTypes {
		if allowed&(1<<i) == 0 || t.flags&want != want {
			continue
		}
		if !found || t.flags&memDeviceLocal != 0 {
			found, best = true, uint32(i)
			if t.flags&memDeviceLocal != 0 {
				break
			}
		}
	}
	return best, found
}

// Bytes is the mapped memory of b: writes to it are what the kernels read,
// and after Run it holds what they wrote.
func (b *Buffer) Bytes() []byte { return b.data }

// Free releases b.
func (b *Buffer) Free() {
	if b == nil || b.dev == nil {
		return
	}
	dev := b.dev.device
	if b.data != nil {
		vk.UnmapMemory(dev, b.memory)
	}
	if b.buffer != 0 {
		vk.DestroyBuffer(dev, b.buffer, nil)
	}
	if b.memory != 0 {
		vk.FreeMemory(dev, b.memory, nil)
	}
	*b = Buffer{}
}
