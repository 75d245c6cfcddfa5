//go:build !noasm

package kernels

// initGemmK installs the K-quant tile kernels this CPU runs (none yet).
func initGemmK(k *impls) {}
