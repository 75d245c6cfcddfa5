package kernels

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page on the CPUs mlx runs on.
const hugePage = 2 << 20

// allocPacked returns n zero bytes for a packed copy of weights. A large
// buffer is advised to the kernel as huge pages before it is first
// written: repacking then takes one page fault per 2 MiB instead of one per
// 4 KiB, a visible part of a model's load time, and the kernels' reads take
// fewer TLB misses. The advice is only a hint; failures are ignored.
func allocPacked(n int) []byte {
	b := make([]byte, n)
	if n < 2*hugePage {
		return b
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (p + hugePage - 1) &^ (hugePage - 1)
	hi := (p + uintptr(n)) &^ (hugePage - 1)
	if hi > lo {
		_ = unix.Madvise(b[lo-p:hi-p], unix.MADV_HUGEPAGE)
	}
	return b
}
