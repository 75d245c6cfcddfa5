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
