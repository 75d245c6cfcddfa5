package kernels

import (
	"math"
	"sync/atomic"
	"unsafe"
)

// hugePage is the size of the huge pages the packed weights are laid out
// for (the PMD size of amd64 and of arm64 with 4 KiB pages).
const hugePage = 2 << 20

// hugeOn is set by SetHugePages.
var hugeOn atomic.Bool

// SetHugePages sets whether the packed weight copies that NewMatrix makes
// from now on ask the system for huge pages (off by default; only Linux
// has the request, elsewhere it changes nothing). A decode step streams
// every packed weight once, and reads it faster from 2 MiB pages than from
// 4 KiB ones (fewer TLB misses and page walks). The price is paid at load:
// where the system must first find, or the hypervisor back, each 2 MiB page,
// filling the copies takes longer.
func SetHugePages(on bool) { hugeOn.Store(on) }

// HugePages reports the last SetHugePages setting.
func HugePages() bool { return hugeOn.Load() }

// allocWeights returns n zero bytes for a packed weight copy. Where huge
// pages can be asked for, a copy of at least one huge page starts on a
// huge-page boundary and its whole huge pages are advised as huge
// (adviseHuge) before anything is written to them; the partial huge page
// at its end keeps small pages, so that no copy holds memory past its end.
// The bytes stay on the Go heap: the collector frees them with the matrix.
func allocWeights(n int) []byte {
	if !hugeAdvice || n < hugePage || n > math.MaxInt-hugePage || !hugeOn.Load() {
		return make([]byte, n)
	}
	b := make([]byte, n+hugePage)
	off := -int(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) & (hugePage - 1)
	b = b[off : off+n : off+n]
	adviseHuge(b[:n&^(hugePage-1)])
	return b
}
