package tokenizer

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// Character classes of the split patterns: \p{L}, \p{N}, \s, and the rest.
const (
	clOther uint8 = iota
	clLetter
	clNumber
	clSpace
)

var (
	asciiClass [utf8.RuneSelf]uint8
	bmpOnce    sync.Once
	bmpClass   []uint8 // class of every rune below 0x10000
)

func init() {
	for r := range asciiClass {
		asciiClass[r] = classifySlow(rune(r))
	}
}

func classifySlow(r rune) uint8 {
	switch {
	case unicode.IsLetter(r):
		return clLetter
	case unicode.IsNumber(r):
		return clNumber
	case unicode.IsSpace(r):
		return clSpace
	}
	return clOther
}

func buildBMP() {
	bmpClass = make([]uint8, 0x10000)
	for r := range bmpClass {
		bmpClass[r] = classifySlow(rune(r))
	}
}

// class returns the split class of r. The table matches unicode.IsLetter,
// IsNumber and IsSpace, which is what the regex engine uses for \p{L},
// \p{N} and \s.
func class(r rune) uint8 {
	if r < 0x10000 {
		bmpOnce.Do(buildBMP)
		return bmpClass[r]
	}
	return classifySlow(r)
}

// at decodes the rune at s[i] with its class and size.
func at(s string, i int) (r rune, cl uint8, n int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), asciiClass[c], 1
	}
	r, n = utf8.DecodeRuneInString(s[i:])
	return r, class(r), n
}

// spanClass returns the end of the run of runes of class cl from s[i].
func spanClass(s string, i int, cl uint8) int {
	for i < len(s) {
		_, c, n := at(s, i)
		if c != cl {
			break
		}
		i += n
	}
	return i
}

// spanClassMax is spanClass limited to max runes (max <= 0: no limit).
func spanClassMax(s string, i int, cl uint8, max int) int {
	for k := 0; i < len(s) && (max <= 0 || k < max); k++ {
		_, c, n := at(s, i)
		if c != cl {
			break
		}
		i += n
	}
	return i
}

// contraction matches 's 't 're 've 'm 'll 'd after the quote at s[i-1];
// fold makes it ASCII case-insensitive. It returns the end or -1.
func contraction(s string, i int, fold bool) int {
	if i >= len(s) {
		return -1
	}
	lower := func(c byte) byte {
		if fold && c >= 'A' && c <= 'Z' {
			return c + 'a' - 'A'
		}
		return c
	}
	switch lower(s[i]) {
	case 's', 't', 'm', 'd':
		return i + 1
	case 'r', 'v':
		if i+1 < len(s) && lower(s[i+1]) == 'e' {
			return i + 2
		}
	case 'l':
		if i+1 < len(s) && lower(s[i+1]) == 'l' {
			return i + 2
		}
	}
	return -1
}

// spanWhitespace handles a run of \s at s[i] the way `\s+(?!\S)|\s+`
// does: the whole run at the end of the text, else all but its last rune,
// else (a single space before a non-space) that rune. When strict is set
// the final `\s+` alternative is absent and a single space does not match.
func spanWhitespace(s string, i int, strict bool) int {
	j, last := i, i
	for j < len(s) {
		_, c, n := at(s, j)
		if c != clSpace {
			break
		}
		last = j
		j += n
	}
	switch {
	case j == len(s):
		return j
	case last > i:
		return last
	case strict:
		return -1
	}
	return j
}
