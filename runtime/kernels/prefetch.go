package kernels

import "unsafe"

// PrefetchRows asks for rows runs of n elements of s, the first at s[0],
// stride elements apart, to be brought into the cache while the caller
// computes on something else: a hint, cut to the runs that lie within s.
// Memory read in many short strided runs (a cache block's keys, one KV
// head's values) is not found by the hardware prefetcher in time.
func PrefetchRows[T any](s []T, rows, n, stride int) {
	if rows = runsWithin(len(s), rows, n, stride); rows > 0 {
		size := int(unsafe.Sizeof(s[0]))
		impl().prefetchRows(unsafe.Pointer(&s[0]), rows, n*size, stride*size)
	}
}

// runsWithin returns how many of rows runs of n elements, stride apart,
// lie whole within size elements (one when stride is 0); 0 when n is not
// positive.
func runsWithin(size, rows, n, stride int) int {
	if n <= 0 || rows <= 0 || size < n {
		return 0
	}
	if stride <= 0 {
		return 1
	}
	return min(rows, (size-n)/stride+1)
}

// rowAhead asks for the stored rows of a matrix ahead of a loop that
// reads them in order from memory (a decode step of weights read where
// they lie, which the hardware prefetcher does not follow far enough
// ahead): the zero value asks for nothing.
type rowAhead struct {
	k     *kernelSet
	w     *Matrix
	ahead int // rows ahead, 0 for none
	end   int // the first row past the loop's
}

// rowsAhead asks for the first prefetchBytes of rows [r0, r1) of w's
// stored data and returns the rowAhead of a loop over them.
func (p *Pool) rowsAhead(w *Matrix, r0, r1 int) rowAhead {
	rb := w.rowBytes()
	ra := rowAhead{k: p.mm.k, w: w, ahead: max(1, prefetchBytes/rb), end: r1}

	ra.k.prefetchRows(unsafe.Pointer(&w.Data[r0*rb]), 1, min(min(ra.ahead, r1-r0)*rb, prefetchBytes), 0)
	return ra
}

// ask asks for the row ahead of row r, if it lies within the loop's.
func (ra rowAhead) ask(r int) {
	if ra.ahead > 0 && r+ra.ahead < ra.end {
		rb := ra.w.rowBytes()
		ra.k.prefetchRows(unsafe.Pointer(&ra.w.Data[(r+ra.ahead)*rb]), 1, min(rb, prefetchBytes), 0)
	}
}
