//go:build vulkan && (linux || darwin)

package vulkan

import (
	"fmt"
	"unsafe"

	"github.com/ebitengine/purego"
)

// The Vulkan structures this package passes, laid out as C lays them out on
// 64-bit targets (Go aligns their fields the same way).

type applicationInfo struct {
	sType      uint32
	next       unsafe.Pointer
	appName    *byte
	appVersion uint32
	engineName *byte
	engVersion uint32
	apiVersion uint32
}

type instanceCreateInfo struct {
	sType          uint32
	next           unsafe.Pointer
	flags          uint32
	appInfo        *applicationInfo
	layerCount     uint32
	layers         unsafe.Pointer
	extensionCount uint32
	extensions     unsafe.Pointer
}

type deviceQueueCreateInfo struct {
	sType      uint32
	next       unsafe.Pointer
	flags      uint32
	family     uint32
	count      uint32
	priorities *float32
}

type deviceCreateInfo struct {
	sType          uint32
	next           unsafe.Pointer
	flags          uint32
	queueInfoCount uint32
	queueInfos     *deviceQueueCreateInfo
	layerCount     uint32
	layers         unsafe.Pointer
	extensionCount uint32
	extensions     unsafe.Pointer
	features       unsafe.Pointer
}

type bufferCreateInfo struct {
	sType       uint32
	next        unsafe.Pointer
	flags       uint32
	size        uint64
	usage       uint32
	sharing     uint32
	familyCount uint32
	families    unsafe.Pointer
}

type memoryRequirements struct {
	size      uint64
	alignment uint64
	typeBits  uint32
}

type memoryAllocateInfo struct {
	sType     uint32
	next      unsafe.Pointer
	size      uint64
	typeIndex uint32
}

type shaderModuleCreateInfo struct {
	sType    uint32
	next     unsafe.Pointer
	flags    uint32
	codeSize uintptr
	code     *uint32
}

type descriptorSetLayoutBinding struct {
	binding  uint32
	descType uint32
	count    uint32
	stages   uint32
	samplers unsafe.Pointer
}

type descriptorSetLayoutCreateInfo struct {
	sType        uint32
	next         unsafe.Pointer
	flags        uint32
	bindingCount uint32
	bindings     *descriptorSetLayoutBinding
}

type pushConstantRange struct {
	stages uint32
	offset uint32
	size   uint32
}

type pipelineLayoutCreateInfo struct {
	sType       uint32
	next        unsafe.Pointer
	flags       uint32
	layoutCount uint32
	layouts     *uint64
	rangeCount  uint32
	ranges      *pushConstantRange
}

type pipelineShaderStageCreateInfo struct {
	sType          uint32
	next           unsafe.Pointer
	flags          uint32
	stage          uint32
	module         uint64
	name           *byte
	specialization unsafe.Pointer
}

type computePipelineCreateInfo struct {
	sType     uint32
	next      unsafe.Pointer
	flags     uint32
	stage     pipelineShaderStageCreateInfo
	layout    uint64
	base      uint64
	baseIndex int32
}

type descriptorPoolSize struct {
	descType uint32
	count    uint32
}

type descriptorPoolCreateInfo struct {
	sType     uint32
	next      unsafe.Pointer
	flags     uint32
	maxSets   uint32
	sizeCount uint32
	sizes     *descriptorPoolSize
}

type descriptorSetAllocateInfo struct {
	sType   uint32
	next    unsafe.Pointer
	pool    uint64
	count   uint32
	layouts *uint64
}

type descriptorBufferInfo struct {
	buffer uint64
	offset uint64
	rng    uint64
}

type writeDescriptorSet struct {
	sType      uint32
	next       unsafe.Pointer
	set        uint64
	binding    uint32
	element    uint32
	count      uint32
	descType   uint32
	images     unsafe.Pointer
	buffers    *descriptorBufferInfo
	texelViews unsafe.Pointer
}

type commandPoolCreateInfo struct {
	sType  uint32
	next   unsafe.Pointer
	flags  uint32
	family uint32
}

type commandBufferAllocateInfo struct {
	sType uint32
	next  unsafe.Pointer
	pool  uint64
	level uint32
	count uint32
}

type commandBufferBeginInfo struct {
	sType       uint32
	next        unsafe.Pointer
	flags       uint32
	inheritance unsafe.Pointer
}

type submitInfo struct {
	sType       uint32
	next        unsafe.Pointer
	waitCount   uint32
	waits       unsafe.Pointer
	waitStages  unsafe.Pointer
	cmdCount    uint32
	cmds        *uintptr
	signalCount uint32
	signals     unsafe.Pointer
}

type fenceCreateInfo struct {
	sType uint32
	next  unsafe.Pointer
	flags uint32
}

type memoryBarrier struct {
	sType uint32
	next  unsafe.Pointer
	src   uint32
	dst   uint32
}

// Values of the Vulkan enums and flags used here.
const (
	stApplicationInfo               = 0
	stInstanceCreateInfo            = 1
	stDeviceQueueCreateInfo         = 2
	stDeviceCreateInfo              = 3
	stSubmitInfo                    = 4
	stMemoryAllocateInfo            = 5
	stFenceCreateInfo               = 8
	stBufferCreateInfo              = 12
	stShaderModuleCreateInfo        = 16
	stPipelineShaderStage           = 18
	stComputePipelineCreate         = 29
	stPipelineLayoutCreate          = 30
	stDescriptorSetLayout           = 32
	stDescriptorPoolCreate          = 33
	stDescriptorSetAllocate         = 34
	stWriteDescriptorSet            = 35
	stCommandPoolCreateInfo         = 39
	stCommandBufferAllocate         = 40
	stCommandBufferBeginInfo        = 42
	stMemoryBarrier                 = 46
	apiVersion10                    = 1 << 22
	queueCompute                    = 0x2
	bufferUsageStorage              = 0x20
	memDeviceLocal                  = 0x1
	memHostVisible                  = 0x2
	memHostCoherent                 = 0x4
	descStorageBuffer               = 7
	stageCompute                    = 0x20
	bindPointCompute                = 1
	poolResetCommandBuffer          = 0x2
	usageOneTimeSubmit              = 0x1
	pipelineStageCompute            = 0x800
	pipelineStageHost               = 0x4000
	accessShaderRead                = 0x20
	accessShaderWrite               = 0x40
	accessHostRead                  = 0x2000
	accessHostWrite                 = 0x4000
	wholeSize                uint64 = ^uint64(0)
	noTimeout                uint64 = ^uint64(0)
)

// vk holds the entry points of libvulkan.
var vk struct {
	CreateInstance                         func(info *instanceCreateInfo, alloc unsafe.Pointer, out *uintptr) int32
	DestroyInstance                        func(inst uintptr, alloc unsafe.Pointer)
	EnumeratePhysicalDevices               func(inst uintptr, n *uint32, out *uintptr) int32
	GetPhysicalDeviceProperties            func(pd uintptr, out *byte)
	GetPhysicalDeviceQueueFamilyProperties func(pd uintptr, n *uint32, out *byte)
	GetPhysicalDeviceMemoryProperties      func(pd uintptr, out *byte)
	CreateDevice                           func(pd uintptr, info *deviceCreateInfo, alloc unsafe.Pointer, out *uintptr) int32
	DestroyDevice                          func(dev uintptr, alloc unsafe.Pointer)
	GetDeviceQueue                         func(dev uintptr, family, index uint32, out *uintptr)
	CreateBuffer                           func(dev uintptr, info *bufferCreateInfo, alloc unsafe.Pointer, out *uint64) int32
	DestroyBuffer                          func(dev uintptr, buf uint64, alloc unsafe.Pointer)
	GetBufferMemoryRequirements            func(dev uintptr, buf uint64, out *memoryRequirements)
	AllocateMemory                         func(dev uintptr, info *memoryAllocateInfo, alloc unsafe.Pointer, out *uint64) int32
	FreeMemory                             func(dev uintptr, mem uint64, alloc unsafe.Pointer)
	BindBufferMemory                       func(dev uintptr, buf, mem, offset uint64) int32
	MapMemory                              func(dev uintptr, mem, offset, size uint64, flags uint32, out *unsafe.Pointer) int32
	UnmapMemory                            func(dev uintptr, mem uint64)
	CreateShaderModule                     func(dev uintptr, info *shaderModuleCreateInfo, alloc unsafe.Pointer, out *uint64) int32
	DestroyShaderModule                    func(dev uintptr, mod uint64, alloc unsafe.Pointer)
	CreateDescriptorSetLayout              func(dev uintptr, info *descriptorSetLayoutCreateInfo, alloc unsafe.Pointer, out *uint64) int32
	DestroyDescriptorSetLayout             func(dev uintptr, l uint64, alloc unsafe.Pointer)
	CreatePipelineLayout                   func(dev uintptr, info *pipelineLayoutCreateInfo, alloc unsafe.Pointer, out *uint64) int32
	DestroyPipelineLayout                  func(dev uintptr, l uint64, alloc unsafe.Pointer)
	CreateComputePipelines                 func(dev uintptr, cache uint64, n uint32, info *computePipelineCreateInfo, alloc unsafe.Pointer, out *uint64) int32
	DestroyPipeline                        func(dev uintptr, p uint64, alloc unsafe.Pointer)
	CreateDescriptorPool                   func(dev uintptr, info *descriptorPoolCreateInfo, alloc unsafe.Pointer, out *uint64) int32
	DestroyDescriptorPool                  func(dev uintptr, p uint64, alloc unsafe.Pointer)
	AllocateDescriptorSets                 func(dev uintptr, info *descriptorSetAllocateInfo, out *uint64) int32
	UpdateDescriptorSets                   func(dev uintptr, n uint32, writes *writeDescriptorSet, nCopies uint32, copies unsafe.Pointer)
	CreateCommandPool                      func(dev uintptr, info *commandPoolCreateInfo, alloc unsafe.Pointer, out *uint64) int32
	DestroyCommandPool                     func(dev uintptr, p uint64, alloc unsafe.Pointer)
	AllocateCommandBuffers                 func(dev uintptr, info *commandBufferAllocateInfo, out *uintptr) int32
	BeginCommandBuffer                     func(cb uintptr, info *commandBufferBeginInfo) int32
	EndCommandBuffer                       func(cb uintptr) int32
	ResetCommandBuffer                     func(cb uintptr, flags uint32) int32
	CmdBindPipeline                        func(cb uintptr, point uint32, p uint64)
	CmdBindDescriptorSets                  func(cb uintptr, point uint32, layout uint64, first, n uint32, sets *uint64, nDyn uint32, dyn unsafe.Pointer)
	CmdPushConstants                       func(cb uintptr, layout uint64, stages, offset, size uint32, values unsafe.Pointer)
	CmdDispatch                            func(cb uintptr, x, y, z uint32)
	CmdPipelineBarrier                     func(cb uintptr, src, dst, deps, nMem uint32, mem *memoryBarrier, nBuf uint32, buf unsafe.Pointer, nImg uint32, img unsafe.Pointer)
	QueueSubmit                            func(q uintptr, n uint32, info *submitInfo, fence uint64) int32
	CreateFence                            func(dev uintptr, info *fenceCreateInfo, alloc unsafe.Pointer, out *uint64) int32
	DestroyFence                           func(dev uintptr, f uint64, alloc unsafe.Pointer)
	WaitForFences                          func(dev uintptr, n uint32, fences *uint64, all uint32, timeout uint64) int32
	ResetFences                            func(dev uintptr, n uint32, fences *uint64) int32
}

// load opens libvulkan and binds every entry point of vk.
func load() error {
	var lib uintptr
	var err error
	for _, name := range libraryNames {
		if lib, err = purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL); err == nil {
			break
		}
	}
	if lib == 0 {
		return fmt.Errorf("%w: cannot load libvulkan (%v); on Debian: apt-get install libvulkan1 mesa-vulkan-drivers", ErrUnavailable, err)
	}
	get := func(name string) (uintptr, error) {
		sym, err := purego.Dlsym(lib, name)
		if err != nil {
			return 0, fmt.Errorf("%w: libvulkan has no %s", ErrUnavailable, name)
		}
		return sym, nil
	}
	for _, f := range bindings() {
		sym, err := get(f.name)
		if err != nil {
			return err
		}
		purego.RegisterFunc(f.fn, sym)
	}
	return nil
}

type binding struct {
	name string
	fn   any
}

// bindings pairs each field of vk with its Vulkan name.
func bindings() []binding {
	return []binding{
		{"vkCreateInstance", &vk.CreateInstance},
		{"vkDestroyInstance", &vk.DestroyInstance},
		{"vkEnumeratePhysicalDevices", &vk.EnumeratePhysicalDevices},
		{"vkGetPhysicalDeviceProperties", &vk.GetPhysicalDeviceProperties},
		{"vkGetPhysicalDeviceQueueFamilyProperties", &vk.GetPhysicalDeviceQueueFamilyProperties},
		{"vkGetPhysicalDeviceMemoryProperties", &vk.GetPhysicalDeviceMemoryProperties},
		{"vkCreateDevice", &vk.CreateDevice},
		{"vkDestroyDevice", &vk.DestroyDevice},
		{"vkGetDeviceQueue", &vk.GetDeviceQueue},
		{"vkCreateBuffer", &vk.CreateBuffer},
		{"vkDestroyBuffer", &vk.DestroyBuffer},
		{"vkGetBufferMemoryRequirements", &vk.GetBufferMemoryRequirements},
		{"vkAllocateMemory", &vk.AllocateMemory},
		{"vkFreeMemory", &vk.FreeMemory},
		{"vkBindBufferMemory", &vk.BindBufferMemory},
		{"vkMapMemory", &vk.MapMemory},
		{"vkUnmapMemory", &vk.UnmapMemory},
		{"vkCreateShaderModule", &vk.CreateShaderModule},
		{"vkDestroyShaderModule", &vk.DestroyShaderModule},
		{"vkCreateDescriptorSetLayout", &vk.CreateDescriptorSetLayout},
		{"vkDestroyDescriptorSetLayout", &vk.DestroyDescriptorSetLayout},
		{"vkCreatePipelineLayout", &vk.CreatePipelineLayout},
		{"vkDestroyPipelineLayout", &vk.DestroyPipelineLayout},
		{"vkCreateComputePipelines", &vk.CreateComputePipelines},
		{"vkDestroyPipeline", &vk.DestroyPipeline},
		{"vkCreateDescriptorPool", &vk.CreateDescriptorPool},
		{"vkDestroyDescriptorPool", &vk.DestroyDescriptorPool},
		{"vkAllocateDescriptorSets", &vk.AllocateDescriptorSets},
		{"vkUpdateDescriptorSets", &vk.UpdateDescriptorSets},
		{"vkCreateCommandPool", &vk.CreateCommandPool},
		{"vkDestroyCommandPool", &vk.DestroyCommandPool},
		{"vkAllocateCommandBuffers", &vk.AllocateCommandBuffers},
		{"vkBeginCommandBuffer", &vk.BeginCommandBuffer},
		{"vkEndCommandBuffer", &vk.EndCommandBuffer},
		{"vkResetCommandBuffer", &vk.ResetCommandBuffer},
		{"vkCmdBindPipeline", &vk.CmdBindPipeline},
		{"vkCmdBindDescriptorSets", &vk.CmdBindDescriptorSets},
		{"vkCmdPushConstants", &vk.CmdPushConstants},
		{"vkCmdDispatch", &vk.CmdDispatch},
		{"vkCmdPipelineBarrier", &vk.CmdPipelineBarrier},
		{"vkQueueSubmit", &vk.QueueSubmit},
		{"vkCreateFence", &vk.CreateFence},
		{"vkDestroyFence", &vk.DestroyFence},
		{"vkWaitForFences", &vk.WaitForFences},
		{"vkResetFences", &vk.ResetFences},
	}
}

// check turns a VkResult into an error naming the call.
func check(call string, r int32) error {
	if r != 0 {
		return fmt.Errorf("%w: %s returned VkResult %d", ErrVulkan, call, r)
	}
	return nil
}
