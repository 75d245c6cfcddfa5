package sample

import (
	"cmp"
	"math"
	"slices"
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

// sortLogits sorts c by logit, largest first, ties by lower id.
func sortLogits(c []TokenLogit) { slices.SortFunc(c, compareLogits) }

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
