package grammar

import "math"

// subtreeSum tells what bytes follow a trie node in its subtree, so that a
// mask can accept the whole subtree after one check.
type subtreeSum struct {
	ascii [2]uint64 // ASCII bytes on the edges below the node
	high  bool      // some byte >= 0x80 below the node
	// utf8 bit s: every piece below is valid UTF-8 from the node on when
	// the automaton starts in state s (an incomplete last character allowed).
	utf8 uint8
}

// UTF-8 automaton states for the summary: 0 is a character boundary.
const utf8States = 8

// utf8Next moves the UTF-8 automaton on byte c; -1 is invalid.
func utf8Next(s int, c byte) int {
	in := func(lo, hi byte, to int) int {
		if c >= lo && c <= hi {
			return to
		}
		return -1
	}
	switch s {
	case 0:
		switch {
		case c < 0x80:
			return 0
		case c >= 0xC2 && c <= 0xDF:
			return 1
		case c == 0xE0:
			return 4
		case c == 0xED:
			return 5
		case c >= 0xE1 && c <= 0xEF:
			return 2
		case c == 0xF0:
			return 6
		case c >= 0xF1 && c <= 0xF3:
			return 3
		case c == 0xF4:
			return 7
		}
		return -1
	case 1:
		return in(0x80, 0xBF, 0)
	case 2:
		return in(0x80, 0xBF, 1)
	case 3:
		return in(0x80, 0xBF, 2)
	case 4:
		return in(0xA0, 0xBF, 1)
	case 5:
		return in(0x80, 0x9F, 1)
	case 6:
		return in(0x90, 0xBF, 2)
	}
	return in(0x80, 0x8F, 2)
}

// summarize fills v.sum from the leaves up (children have larger numbers
// than their parents).
func (v *Vocab) summarize() {
	n := len(v.first)
	v.sum = make([]subtreeSum, n)
	v.runes = make([]uint16, n)
	for i := n - 1; i >= 0; i-- {
		s := subtreeSum{}
		okMask := uint8(1<<utf8States - 1)
		runes := uint16(0)
		for c := v.first[i]; c < v.first[i]+int32(v.count[i]); c++ {
			b := v.label[c]
			cs := v.sum[c]
			r := v.runes[c]
			if b < 0x80 || b >= 0xC0 { // a byte that starts a code point
				r = min(r+1, math.MaxUint16)
			}
			runes = max(runes, r)
			s.ascii[0] |= cs.ascii[0]
			s.ascii[1] |= cs.ascii[1]
			s.high = s.high || cs.high
			if b < 0x80 {
				s.ascii[b>>6] |= 1 << (b & 63)
			} else {
				s.high = true
			}
			for st := range utf8States {
				to := utf8Next(st, b)
				if to < 0 || v.sum[c].utf8&(1<<to) == 0 {
					okMask &^= 1 << st
				}
			}
		}
		s.utf8 = okMask
		v.sum[i] = s
		v.runes[i] = runes
	}
}

// utf8State returns the automaton state of a pending prefix.
func (p partial) utf8State() int {
	if p.n == 1 {
		switch p.b[0] {
		case 0xE0:
			return 4
		case 0xED:
			return 5
		case 0xF0:
			return 6
		case 0xF4:
			return 7
		}
	}
	return int(p.need - p.n)
}
