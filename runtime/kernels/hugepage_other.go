//go:build !linux

package kernels

// hugeAdvice reports whether adviseHuge asks for huge pages: not on this
// system.
const hugeAdvice = false

func adviseHuge([]byte) {}
