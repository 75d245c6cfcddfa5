//go:build vulkan && (linux || darwin)

package vulkan

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"unsafe"
)

// Kernel is a compute pipeline with Buffers storage buffers at bindings 0
// to Buffers-1 of set 0, and push constants of PushWords 32-bit words.
type Kernel struct {
	dev       *Device
	Buffers   int
	PushWords int
	module    uint64
	setLayout uint64
	layout    uint64
	pipeline  uint64
	pool      uint64
	set       uint64
}

// NewKernel makes a compute pipeline from SPIR-V whose entry point is main.
func (d *Device) NewKernel(spirv []byte, buffers, pushWords int) (*Kernel, error) {
	if len(spirv) < 20 || len(spirv)%4 != 0 || binary.LittleEndian.Uint32(spirv) != 0x07230203 {
		return nil, fmt.Errorf("%w: not SPIR-V (%d bytes)", ErrVulkan, len(spirv))
	}
	if buffers < 1 || buffers > 8 || pushWords < 0 || pushWords > 32 {
		return nil, fmt.Errorf("%w: kernel with %d buffers and %d push words", ErrVulkan, buffers, pushWords)
	}
	k := &Kernel{dev: d, Buffers: buffers, PushWords: pushWords}
	if err := k.init(spirv); err != nil {
		k.Free()
		return nil, err
	}
	return k, nil
}

func (k *Kernel) init(spirv []byte) error {
	dev := k.dev.device
	code := make([]uint32, len(spirv)/4)
	for i := range code {
		code[i] = binary.LittleEndian.Uint32(spirv[4*i:])
	}
	mi := &shaderModuleCreateInfo{sType: stShaderModuleCreateInfo, codeSize: uintptr(len(spirv)), code: &code[0]}
	if err := check("vkCreateShaderModule", vk.CreateShaderModule(dev, mi, nil, &k.module)); err != nil {
		return err
	}
	binds := make([]descriptorSetLayoutBinding, k.Buffers)
	for i := range binds {
		binds[i] = descriptorSetLayoutBinding{binding: uint32(i), descType: descStorageBuffer, count: 1, stages: stageCompute}
	}
	li := &descriptorSetLayoutCreateInfo{sType: stDescriptorSetLayout, bindingCount: uint32(len(binds)), bindings: &binds[0]}
	if err := check("vkCreateDescriptorSetLayout", vk.CreateDescriptorSetLayout(dev, li, nil, &k.setLayout)); err != nil {
		return err
	}
	pl := &pipelineLayoutCreateInfo{sType: stPipelineLayoutCreate, layoutCount: 1, layouts: &k.setLayout}
	if k.PushWords > 0 {
		pl.rangeCount, pl.ranges = 1, &pushConstantRange{stages: stageCompute, size: uint32(4 * k.PushWords)}
	}
	if err := check("vkCreatePipelineLayout", vk.CreatePipelineLayout(dev, pl, nil, &k.layout)); err != nil {
		return err
	}
	entry := []byte("main\x00")
	ci := &computePipelineCreateInfo{
		sType:     stComputePipelineCreate,
		stage:     pipelineShaderStageCreateInfo{sType: stPipelineShaderStage, stage: stageCompute, module: k.module, name: &entry[0]},
		layout:    k.layout,
		baseIndex: -1,
	}
	if err := check("vkCreateComputePipelines", vk.CreateComputePipelines(dev, 0, 1, ci, nil, &k.pipeline)); err != nil {
		return err
	}
	runtime.KeepAlive(entry)
	runtime.KeepAlive(code)
	size := &descriptorPoolSize{descType: descStorageBuffer, count: uint32(k.Buffers)}
	di := &descriptorPoolCreateInfo{sType: stDescriptorPoolCreate, maxSets: 1, sizeCount: 1, sizes: size}
	if err := check("vkCreateDescriptorPool", vk.CreateDescriptorPool(dev, di, nil, &k.pool)); err != nil {
		return err
	}
	si := &descriptorSetAllocateInfo{sType: stDescriptorSetAllocate, pool: k.pool, count: 1, layouts: &k.setLayout}
	return check("vkAllocateDescriptorSets", vk.AllocateDescriptorSets(dev, si, &k.set))
}

// Free releases k.
func (k *Kernel) Free() {
	if k == nil || k.dev == nil {
		return
	}
	dev := k.dev.device
	if k.pool != 0 {
		vk.DestroyDescriptorPool(dev, k.pool, nil)
	}
	if k.pipeline != 0 {
		vk.DestroyPipeline(dev, k.pipeline, nil)
	}
	if k.layout != 0 {
		vk.DestroyPipelineLayout(dev, k.layout, nil)
	}
	if k.setLayout != 0 {
		vk.DestroyDescriptorSetLayout(dev, k.setLayout, nil)
	}
	if k.module != 0 {
		vk.DestroyShaderModule(dev, k.module, nil)
	}
	*k = Kernel{}
}

// Run records the dispatches in one command buffer, each after the writes
// of those before it, submits it and waits for it to finish; the output
// buffers' Bytes then hold the results. A kernel may appear once in a Run
// (each has one descriptor set).
func (d *Device) Run(ds ...Dispatch) error {
	for i, x := range ds {
		k := x.Kernel
		if len(x.Bufs) != k.Buffers || len(x.Push) != k.PushWords {
			return fmt.Errorf("%w: kernel takes %d buffers and %d push words, got %d and %d", ErrVulkan, k.Buffers, k.PushWords, len(x.Bufs), len(x.Push))
		}
		for _, y := range ds[:i] {
			if y.Kernel == k {
				return fmt.Errorf("%w: one kernel dispatched twice in one command buffer", ErrVulkan)
			}
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var pin [][]descriptorBufferInfo
	for _, x := range ds {
		infos := make([]descriptorBufferInfo, len(x.Bufs))
		writes := make([]writeDescriptorSet, len(x.Bufs))
		for i, b := range x.Bufs {
			infos[i] = descriptorBufferInfo{buffer: b.buffer, rng: wholeSize}
			writes[i] = writeDescriptorSet{sType: stWriteDescriptorSet, set: x.Kernel.set, binding: uint32(i), count: 1, descType: descStorageBuffer, buffers: &infos[i]}
		}
		vk.UpdateDescriptorSets(d.device, uint32(len(writes)), &writes[0], 0, nil)
		runtime.KeepAlive(writes)
		pin = append(pin, infos)
	}
	cb := d.cmd
	if err := check("vkResetCommandBuffer", vk.ResetCommandBuffer(cb, 0)); err != nil {
		return err
	}
	if err := check("vkBeginCommandBuffer", vk.BeginCommandBuffer(cb, &commandBufferBeginInfo{sType: stCommandBufferBeginInfo, flags: usageOneTimeSubmit})); err != nil {
		return err
	}
	for i, x := range ds {
		if i > 0 {
			// The next dispatch reads what the one before wrote.
			mb := &memoryBarrier{sType: stMemoryBarrier, src: accessShaderWrite, dst: accessShaderRead | accessShaderWrite}
			vk.CmdPipelineBarrier(cb, pipelineStageCompute, pipelineStageCompute, 0, 1, mb, 0, nil, 0, nil)
		}
		if x.GX == 0 || x.GY == 0 {
			continue
		}
		k := x.Kernel
		vk.CmdBindPipeline(cb, bindPointCompute, k.pipeline)
		vk.CmdBindDescriptorSets(cb, bindPointCompute, k.layout, 0, 1, &k.set, 0, nil)
		if len(x.Push) > 0 {
			vk.CmdPushConstants(cb, k.layout, stageCompute, 0, uint32(4*len(x.Push)), unsafe.Pointer(&x.Push[0]))
		}
		vk.CmdDispatch(cb, x.GX, x.GY, 1)
	}
	// The host reads what the shaders wrote once the fence is signalled.
	mb := &memoryBarrier{sType: stMemoryBarrier, src: accessShaderWrite, dst: accessHostRead}
	vk.CmdPipelineBarrier(cb, pipelineStageCompute, pipelineStageHost, 0, 1, mb, 0, nil, 0, nil)
	if err := check("vkEndCommandBuffer", vk.EndCommandBuffer(cb)); err != nil {
		return err
	}
	si := &submitInfo{sType: stSubmitInfo, cmdCount: 1, cmds: &cb}
	if err := check("vkQueueSubmit", vk.QueueSubmit(d.queue, 1, si, d.fence)); err != nil {
		return err
	}
	if err := check("vkWaitForFences", vk.WaitForFences(d.device, 1, &d.fence, 1, noTimeout)); err != nil {
		return err
	}
	runtime.KeepAlive(pin)
	runtime.KeepAlive(ds)
	return check("vkResetFences", vk.ResetFences(d.device, 1, &d.fence))
}
