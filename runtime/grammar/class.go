package grammar

import (
	"slices"
	"unicode/utf8"
)

// maxRune is the largest code point.
const maxRune = utf8.MaxRune

// runeRange is an inclusive range of code points.
type runeRange struct{ lo, hi rune }

// class is a set of code points: sorted, disjoint, non-adjacent ranges,
// with a bitmap of its ASCII part for the common case.
type class struct {
	ranges []runeRange
	ascii  [2]uint64
}

// newClass normalizes ranges (sorted and merged) and negates them when neg
// is set.
func newClass(ranges []runeRange, neg bool) class {
	rs := normalizeRanges(ranges)
	if neg {
		rs = complementRanges(rs)
	}
	c := class{ranges: rs}
	for _, r := range rs {
		for x := r.lo; x <= r.hi && x < 0x80; x++ {
			c.ascii[x>>6] |= 1 << (x & 63)
		}
	}
	return c
}

func normalizeRanges(in []runeRange) []runeRange {
	rs := slices.Clone(in)
	slices.SortFunc(rs, func(a, b runeRange) int { return int(a.lo - b.lo) })
	out := rs[:0]
	for _, r := range rs {
		if r.lo > r.hi {
			continue
		}
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

func complementRanges(rs []runeRange) []runeRange {
	var out []runeRange
	next := rune(0)
	for _, r := range rs {
		if r.lo > next {
			out = append(out, runeRange{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= maxRune {
		out = append(out, runeRange{next, maxRune})
	}
	return out
}

// contains reports whether code point x is in the class.
func (c *class) contains(x rune) bool {
	if x < 0x80 {
		return c.ascii[x>>6]&(1<<(x&63)) != 0
	}
	for _, r := range c.ranges {
		if x < r.lo {
			return false
		}
		if x <= r.hi {
			return true
		}
	}
	return false
}

// overlaps reports whether the class holds a code point in [lo, hi].
func (c *class) overlaps(lo, hi rune) bool {
	for _, r := range c.ranges {
		if r.lo > hi {
			return false
		}
		if r.hi >= lo {
			return true
		}
	}
	return false
}
