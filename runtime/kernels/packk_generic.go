//go:build noasm || !amd64

package kernels

// initGemmK installs no K-quant tile kernels: without them NewMatrix keeps
// Q4_K and Q6_K unpacked and the per-row kernels compute them.
func initGemmK(*impls) {}
