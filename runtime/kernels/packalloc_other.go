//go:build !linux

package kernels

// allocPacked returns n zero bytes for a packed copy of weights.
func allocPacked(n int) []byte { return make([]byte, n) }
