package sample

import (
	"cmp"
	"math"
	"slices"
	"unsafe"
)

// TokenLogit is a token id with its logit.
type TokenLogit struct {
	ID    int32
	Logit float32
}

// before reports whether a ranks above b: the larger logit first, the lower
// id first among equal logits. Every ordering in the package uses it, which
// makes results independent of scan order.
func before(a, b TokenLogit) bool {
	return a.Logit > b.Logit || (a.Logit == b.Logit && a.ID < b.ID)
}

func compareLogits(a, b TokenLogit) int {
	if c := cmp.Compare(b.Logit, a.Logit); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// sortLogits sorts c by logit, largest first, ties by lower id. Long
// lists (a top_p nucleus over a flat distribution holds most of the
// vocabulary) sort as integer keys, by radix, which avoids a comparison
// per pair. c must hold no NaN.
func sortLogits(c []TokenLogit) { sortLogitsBuf(c, nil) }

// sortLogitsBuf is sortLogits with a scratch buffer for the key sort, kept
// between calls (nil: compare).
func sortLogitsBuf(c []TokenLogit, scratch *[]uint64) {
	if scratch == nil || len(c) < keySortMin || uintptr(unsafe.Pointer(unsafe.SliceData(c)))%8 != 0 {
		slices.SortFunc(c, compareLogits)
		return
	}
	// A TokenLogit is 8 bytes: each becomes its key where it lies.
	keys := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(c))), len(c))
	for i, t := range c {
		keys[i] = sortKey(t)
	}
	*scratch = radixSort(keys, *scratch)
	for i, k := range keys {
		c[i] = fromSortKey(k)
	}
}

// radixSort sorts keys by bytes, least significant first, skipping the
// bytes that all keys share (most of an id's); buf is scratch, returned
// grown.
func radixSort(keys, buf []uint64) []uint64 {
	buf = slices.Grow(buf[:0], len(keys))[:len(keys)]
	src, dst := keys, buf
	for shift := 0; shift < 64; shift += 8 {
		var count [256]int
		for _, k := range src {
			count[byte(k>>shift)]++
		}
		if count[byte(src[0]>>shift)] == len(src) {
			continue
		}
		pos := 0
		for d, n := range count {
			count[d] = pos
			pos += n
		}
		for _, k := range src {
			d := byte(k >> shift)
			dst[count[d]] = k
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
	return buf
}

// keySortMin is the list length from which sortLogits sorts keys.
const keySortMin = 64

const signBit = 1 << 31

// sortKey maps t to a uint64 whose ascending order is sortLogits' order:
// the logit's bits made monotonic (-0 as +0) and inverted above, the id
// with its sign flipped below.
func sortKey(t TokenLogit) uint64 {
	x := t.Logit
	if x == 0 {
		x = 0
	}
	b := math.Float32bits(x)
	if b&signBit != 0 {
		b = ^b
	} else {
		b |= signBit
	}
	return uint64(^b)<<32 | uint64(uint32(t.ID)^signBit)
}

// fromSortKey inverts sortKey.
func fromSortKey(k uint64) TokenLogit {
	b := ^uint32(k >> 32)
	if b&signBit != 0 {
		b &^= signBit
	} else {
		b = ^b
	}
	return TokenLogit{ID: int32(uint32(k) ^ signBit), Logit: math.Float32frombits(b)}
}

// TopK returns the k largest logits, largest first and ties by lower id,
// appended to dst[:0]. NaN and -Inf entries are never returned, so the result
// is shorter than k when fewer entries are finite or +Inf. It selects with a
// k-entry heap in one pass over logits: O(n + k log k) for small k, no
// allocation when dst has room for k.
func TopK(dst []TokenLogit, logits []float32, k int) []TokenLogit {
	k = min(k, len(logits))
	if k <= 0 {
		return dst[:0]
	}
	h := slices.Grow(dst[:0], k)[:k]
	for i := range h {
		h[i] = TokenLogit{ID: -1, Logit: float32(math.Inf(-1))}
	}
	// h is a heap whose root h[0] ranks lowest. Entries come in id order, so
	// one equal to the root ranks below it and stays out.
	// Blocks whose maximum does not beat the root are skipped whole.
	thr := h[0].Logit
	for base := 0; base < len(logits); base += block {
		blk := logits[base:min(base+block, len(logits))]
		if !(maxOf(blk, thr) > thr) {
			continue
		}
		for i, x := range blk {
			if x > thr {
				siftDown(h, TokenLogit{ID: int32(base + i), Logit: x})
				thr = h[0].Logit
			}
		}
	}
	sortLogits(h)
	for len(h) > 0 && h[len(h)-1].ID < 0 {
		h = h[:len(h)-1]
	}
	return h
}

// siftDown replaces the root of the heap h (lowest rank at the root) by e and
// restores the heap order.
func siftDown(h []TokenLogit, e TokenLogit) {
	i, n := 0, len(h)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && before(h[c], h[r]) {
			c = r
		}
		if !before(e, h[c]) {
			break
		}
		h[i] = h[c]
		i = c
	}
	h[i] = e
}

// block is the length of the runs that argmax and TopK scan for their
// maximum first: most runs hold no new best and cost one maxOf.
const block = 64

// maxOf returns the largest of m and the entries of x, ignoring NaN. Four
// running maxima keep the compares independent.
func maxOf(x []float32, m float32) float32 {
	m0, m1, m2, m3 := m, m, m, m
	n := len(x) &^ 3
	for i := 0; i < n; i += 4 {
		q := x[i : i+4 : i+4]
		if q[0] > m0 {
			m0 = q[0]
		}
		if q[1] > m1 {
			m1 = q[1]
		}
		if q[2] > m2 {
			m2 = q[2]
		}
		if q[3] > m3 {
			m3 = q[3]
		}
	}
	for _, v := range x[n:] {
		if v > m0 {
			m0 = v
		}
	}
	return max(m0, m1, m2, m3)
}

// argmax returns the index of the largest logit, the lowest index among
// equal ones, ignoring NaN; -1 when no entry is above -Inf.
func argmax(logits []float32) int {
	best, at := float32(math.Inf(-1)), -1
	for base := 0; base < len(logits); base += block {
		blk := logits[base:min(base+block, len(logits))]
		m := maxOf(blk, best)
		if !(m > best) {
			continue
		}
		for i, x := range blk {
			if x == m {
				at = base + i
				break
			}
		}
		best = m
	}
	return at
}
