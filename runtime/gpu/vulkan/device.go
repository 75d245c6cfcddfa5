//go:build vulkan && (linux || darwin)

package vulkan

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"runtime"
	"sync"
)

// Device is a logical Vulkan device with one compute queue, a command
// buffer and a fence. Its methods are safe for concurrent use; Run calls
// are serialised.
type Device struct {
	mu       sync.Mutex
	instance uintptr
	physical uintptr
	device   uintptr
	queue    uintptr
	family   uint32
	cmdPool  uint64
	cmd      uintptr
	fence    uint64
	memTypes []memType
	info     Info
}

type memType struct{ flags, heap uint32 }

// Sizes of VkPhysicalDeviceProperties, VkQueueFamilyProperties and
// VkPhysicalDeviceMemoryProperties (rounded up) and the offsets read in them.
const (
	propsSize       = 1024
	propsTypeOff    = 16
	propsNameOff    = 20
	propsNameLen    = 256
	queueFamilySize = 24
	memPropsSize    = 520
	memHeapsOff     = 264
)

var loadOnce = sync.OnceValue(load)

// Open loads libvulkan, creates an instance and a device on the physical
// device that suits compute best (discrete first, then integrated, virtual,
// CPU), with one of its compute queues.
func Open() (*Device, error) {
	if err := loadOnce(); err != nil {
		return nil, err
	}
	d := &Device{}
	if err := d.init(); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

func (d *Device) init() error {
	name := []byte("mlx\x00")
	app := &applicationInfo{sType: stApplicationInfo, appName: &name[0], engineName: &name[0], apiVersion: apiVersion10}
	ci := &instanceCreateInfo{sType: stInstanceCreateInfo, appInfo: app}
	if r := vk.CreateInstance(ci, nil, &d.instance); r != 0 {
		return fmt.Errorf("%w: vkCreateInstance returned VkResult %d (is a Vulkan driver installed?)", ErrUnavailable, r)
	}
	runtime.KeepAlive(name)
	if err := d.pickPhysical(); err != nil {
		return err
	}
	prio := float32(1)
	qi := &deviceQueueCreateInfo{sType: stDeviceQueueCreateInfo, family: d.family, count: 1, priorities: &prio}
	di := &deviceCreateInfo{sType: stDeviceCreateInfo, queueInfoCount: 1, queueInfos: qi}
	if err := check("vkCreateDevice", vk.CreateDevice(d.physical, di, nil, &d.device)); err != nil {
		return err
	}
	vk.GetDeviceQueue(d.device, d.family, 0, &d.queue)
	pi := &commandPoolCreateInfo{sType: stCommandPoolCreateInfo, flags: poolResetCommandBuffer, family: d.family}
	if err := check("vkCreateCommandPool", vk.CreateCommandPool(d.device, pi, nil, &d.cmdPool)); err != nil {
		return err
	}
	ai := &commandBufferAllocateInfo{sType: stCommandBufferAllocate, pool: d.cmdPool, count: 1}
	if err := check("vkAllocateCommandBuffers", vk.AllocateCommandBuffers(d.device, ai, &d.cmd)); err != nil {
		return err
	}
	fi := &fenceCreateInfo{sType: stFenceCreateInfo}
	return check("vkCreateFence", vk.CreateFence(d.device, fi, nil, &d.fence))
}

// pickPhysical chooses the physical device and its compute queue family.
func (d *Device) pickPhysical() error {
	var n uint32
	if err := check("vkEnumeratePhysicalDevices", vk.EnumeratePhysicalDevices(d.instance, &n, nil)); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%w: no Vulkan device", ErrUnavailable)
	}
	pds := make([]uintptr, n)
	if err := check("vkEnumeratePhysicalDevices", vk.EnumeratePhysicalDevices(d.instance, &n, &pds[0])); err != nil {
		return err
	}
	best := -1
	for _, pd := range pds[:n] {
		family, ok := computeFamily(pd)
		if !ok {
			continue
		}
		info, types := describe(pd)
		if r := rank(info.Type); r > best {
			best = r
			d.physical, d.family, d.info, d.memTypes = pd, family, info, types
		}
	}
	if best < 0 {
		return fmt.Errorf("%w: no Vulkan device has a compute queue", ErrUnavailable)
	}
	return nil
}

// rank orders device types by their use for compute.
func rank(t DeviceType) int {
	switch t {
	case Discrete:
		return 4
	case Integrated:
		return 3
	case Virtual:
		return 2
	case CPU:
		return 1
	}
	return 0
}

// computeFamily returns the first queue family of pd with compute.
func computeFamily(pd uintptr) (uint32, bool) {
	var n uint32
	vk.GetPhysicalDeviceQueueFamilyProperties(pd, &n, nil)
	if n == 0 || n > 64 {
		return 0, false
	}
	buf := make([]byte, int(n)*queueFamilySize)
	vk.GetPhysicalDeviceQueueFamilyProperties(pd, &n, &buf[0])
	for i := range n {
		rec := buf[int(i)*queueFamilySize:]
		flags, count := binary.LittleEndian.Uint32(rec), binary.LittleEndian.Uint32(rec[4:])
		if flags&queueCompute != 0 && count > 0 {
			return i, true
		}
	}
	return 0, false
}

// describe reads pd's name, type, memory types and device-local memory.
func describe(pd uintptr) (Info, []memType) {
	props := make([]byte, propsSize)
	vk.GetPhysicalDeviceProperties(pd, &props[0])
	name := props[propsNameOff : propsNameOff+propsNameLen]
	if i := bytes.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	}
	info := Info{Name: string(name), Type: DeviceType(binary.LittleEndian.Uint32(props[propsTypeOff:]))}
	mem := make([]byte, memPropsSize)
	vk.GetPhysicalDeviceMemoryProperties(pd, &mem[0])
	nt := min(binary.LittleEndian.Uint32(mem), 32)
	types := make([]memType, nt)
	for i := range types {
		types[i] = memType{binary.LittleEndian.Uint32(mem[4+8*i:]), binary.LittleEndian.Uint32(mem[8+8*i:])}
	}
	nh := min(binary.LittleEndian.Uint32(mem[260:]), 16)
	for i := range int(nh) {
		h := mem[memHeapsOff+16*i:]
		if binary.LittleEndian.Uint32(h[8:])&memDeviceLocal != 0 {
			info.Memory += binary.LittleEndian.Uint64(h)
		}
	}
	return info, types
}

// Info describes the device.
func (d *Device) Info() Info { return d.info }

// Close releases the device; buffers and kernels must be freed before.
func (d *Device) Close() {
	if d == nil {
		return
	}
	if d.device != 0 {
		if d.fence != 0 {
			vk.DestroyFence(d.device, d.fence, nil)
		}
		if d.cmdPool != 0 {
			vk.DestroyCommandPool(d.device, d.cmdPool, nil)
		}
		vk.DestroyDevice(d.device, nil)
	}
	if d.instance != 0 {
		vk.DestroyInstance(d.instance, nil)
	}
	*d = Device{}
}
