//go:build vulkan

package vulkan

// libraryNames are the names of the Vulkan loader tried in order.
var libraryNames = []string{"libvulkan.so.1", "libvulkan.so"}
