//go:build vulkan

package vulkan

// libraryNames are the names of the Vulkan loader (the Vulkan SDK's, over
// MoltenVK) tried in order.
var libraryNames = []string{"libvulkan.1.dylib", "libvulkan.dylib", "libMoltenVK.dylib"}
