//go:build !noasm

package kernels

// initArch installs the assembly kernels this CPU supports.
func initArch(k *impls) {}
