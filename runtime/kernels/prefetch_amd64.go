//go:build !noasm

package kernels

import "unsafe"

//go:noescape
func prefetchRowsT1(p unsafe.Pointer, rows, n, stride int)

// initPrefetch installs the prefetch of PrefetchRows, which every amd64
// CPU has.
func initPrefetch(k *kernelSet) {
	k.prefetchRows = prefetchRowsT1
}
