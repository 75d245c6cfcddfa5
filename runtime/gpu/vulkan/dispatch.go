package vulkan

// Dispatch is one run of a kernel in Device.Run: its buffers, its push
// constants and its workgroups (x, y).
type Dispatch struct {
	Kernel *Kernel
	Bufs   []*Buffer
	Push   []uint32
	GX, GY uint32
}

// groups splits the workgroups of items invocations, 64 to a group, between
// the two dimensions of a dispatch.
func groups(items int) (gx, gy uint32) {
	n := (items + groupSize - 1) / groupSize
	return uint32(min(n, maxGroupsX)), uint32((n + maxGroupsX - 1) / maxGroupsX)
}
