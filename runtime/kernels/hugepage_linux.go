package kernels

import "golang.org/x/sys/unix"

// hugeAdvice reports whether adviseHuge asks for huge pages.
const hugeAdvice = true

// madvise is unix.Madvise, a variable so that tests can make it fail.
var madvise = unix.Madvise

// adviseHuge asks for huge pages for b, whole huge pages of an allocation
// not yet written to. It first drops any pages b already has (memory the
// heap reused and cleared): those would stay small, and b reads as zeros
// either way. A failure leaves b as it was, on small pages.
func adviseHuge(b []byte) {
	if madvise(b, unix.MADV_DONTNEED) == nil {
		_ = madvise(b, unix.MADV_HUGEPAGE)
	}
}
