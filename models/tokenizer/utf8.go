package tokenizer

import (
	"strings"
	"unicode/utf8"
)

// seqLen returns the length of the UTF-8 sequence that starts at s[i] and the
// number of its bytes present in s that are valid so far. A complete valid
// sequence has n == want; want == 0 marks a byte that cannot start one.
func seqLen(s string, i int) (n, want int) {
	b := s[i]
	switch {
	case b < 0x80:
		return 1, 1
	case b >= 0xC2 && b <= 0xDF:
		want = 2
	case b >= 0xE0 && b <= 0xEF:
		want = 3
	case b >= 0xF0 && b <= 0xF4:
		want = 4
	default:
		return 0, 0
	}
	n = 1
	for n < want && i+n < len(s) {
		lo, hi := byte(0x80), byte(0xBF)
		if n == 1 {
			switch b {
			case 0xE0:
				lo = 0xA0
			case 0xED:
				hi = 0x9F
			case 0xF0:
				lo = 0x90
			case 0xF4:
				hi = 0x8F
			}
		}
		if c := s[i+n]; c < lo || c > hi {
			break
		}
		n++
	}
	return n, want
}

// lossy replaces every maximal invalid subpart of s by U+FFFD, the way
// Rust's String::from_utf8_lossy and Python's errors="replace" do (Go's
// strings.ToValidUTF8 would fold a whole run into one replacement).
func lossy(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		n, want := seqLen(s, i)
		if want != 0 && n == want {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		b.WriteString("\uFFFD")
		i += max(n, 1)
	}
	return b.String()
}

// completeLen returns the length of the longest prefix of s that does not end
// in an incomplete (but so far valid) UTF-8 sequence: what a stream may emit
// now, holding the rest back until more bytes arrive.
func completeLen(s string) int {
	for back := 1; back <= 3 && back <= len(s); back++ {
		i := len(s) - back
		if s[i]&0xC0 == 0x80 {
			continue // continuation byte: look further back
		}
		n, want := seqLen(s, i)
		if want > 1 && n == back && n < want {
			return i
		}
		return len(s)
	}
	return len(s)
}
