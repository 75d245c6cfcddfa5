//go:build (!amd64 && !arm64) || noasm

package kernels

// initArch leaves the reference kernels in place: no assembly on this
// platform or in this build.
func initArch(k *impls) {}
