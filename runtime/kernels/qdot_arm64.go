//go:build !noasm

package kernels

// initQuantNEON installs the quantized assembly kernels.
func initQuantNEON(k *impls) {}
