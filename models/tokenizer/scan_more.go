package tokenizer

import (
	"strings"
	"unicode"
)

// Split patterns of newer models that have hand scanners too: Qwen3.5 (the
// Qwen2 pattern with combining marks counted as letters) and DeepSeek-V3.
const (
	patQwen35  = contrHF + `|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	patDSV3    = `[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_` + "`" + `{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	patCJKKana = `[一-龥぀-ゟ゠-ヿ]+`
	patCJK     = `[一-龥ࠀ-一가-퟿]+`
)

// isMark reports whether the rune at s[i] is a combining mark (\p{M}).
func isMark(s string, i int) bool {
	r, cl, _ := at(s, i)
	return cl == clOther && r >= 0x300 && unicode.IsMark(r)
}

// inWord reports whether the rune at s[i] is in [\p{L}\p{M}].
func inWord(s string, i int) bool {
	_, cl, _ := at(s, i)
	return cl == clLetter || isMark(s, i)
}

// spanWord returns the end of the [\p{L}\p{M}] run from s[i].
func spanWord(s string, i int) int {
	for i < len(s) && inWord(s, i) {
		i += runeLen(s, i)
	}
	return i
}

// qwen35Scan scans patQwen35.
func qwen35Scan(s string, i int) int {
	r, cl, n := at(s, i)
	if r == '\'' {
		if e := contraction(s, i+1, true); e > 0 {
			return e
		}
	}
	switch {
	case inWord(s, i):
		// A leading mark may be taken by the optional rune or by the run:
		// either way the match ends where the run does.
		return spanWord(s, i)
	case cl == clNumber:
		return i + n
	}
	if r != '\r' && r != '\n' && i+n < len(s) && inWord(s, i+n) {
		return spanWord(s, i+n)
	}
	st := i
	if r == ' ' {
		st = i + 1
	}
	if st < len(s) {
		if _, c2, _ := at(s, st); c2 == clOther && !isMark(s, st) {
			e := st
			for e < len(s) {
				if _, c, _ := at(s, e); c != clOther || isMark(s, e) {
					break
				}
				e += runeLen(s, e)
			}
			return spanNewlines(s, e)
		}
	}
	if cl != clSpace {
		return -1
	}
	return spanSpaceNewline(s, i)
}

// isPunctSym reports whether the rune at s[i] is in [\p{P}\p{S}].
func isPunctSym(s string, i int) bool {
	r, cl, _ := at(s, i)
	return cl == clOther && (unicode.IsPunct(r) || unicode.IsSymbol(r))
}

// deepseekV3Scan scans patDSV3.
func deepseekV3Scan(s string, i int) int {
	r, cl, n := at(s, i)
	if r < 0x80 && isPunct(r) && i+1 < len(s) && isASCIILetter(s[i+1]) {
		e := i + 1
		for e < len(s) && isASCIILetter(s[e]) {
			e++
		}
		return e
	}
	if inWord(s, i) {
		return spanWord(s, i)
	}
	// The optional rune: anything but \r, \n, letters, P and S.
	if r != '\r' && r != '\n' && cl != clLetter && !isPunctSym(s, i) && i+n < len(s) && inWord(s, i+n) {
		return spanWord(s, i+n)
	}
	st := i
	if r == ' ' {
		st = i + 1
	}
	if st < len(s) && isPunctSym(s, st) {
		e := st
		for e < len(s) && isPunctSym(s, e) {
			e += runeLen(s, e)
		}
		return spanNewlines(s, e)
	}
	if cl != clSpace {
		return -1
	}
	return spanSpaceNewline(s, i)
}

func isASCIILetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

// runeRanges scans runs of runes inside inclusive ranges (lo, hi pairs),
// for character-class patterns such as `[一-龥぀-ゟ゠-ヿ]+`.
func runeRanges(ranges ...rune) scanFunc {
	return func(s string, i int) int {
		e := i
		for e < len(s) {
			r, _, n := at(s, e)
			in := false
			for k := 0; k+1 < len(ranges) && !in; k += 2 {
				in = r >= ranges[k] && r <= ranges[k+1]
			}
			if !in {
				break
			}
			e += n
		}
		if e == i {
			return -1
		}
		return e
	}
}

// classRun scans one rune, or a run of runes (plus), for which in holds;
// with optSpace a single leading \s is allowed before the run, as in
// `\s?\p{L}+`.
func classRun(in func(rune) bool, plus, optSpace bool) scanFunc {
	return func(s string, i int) int {
		st := i
		if r, cl, n := at(s, i); optSpace && cl == clSpace && i+n < len(s) {
			if r2, _, _ := at(s, i+n); in(r2) {
				st = i + n
			}
		} else if !in(r) {
			return -1
		}
		r, _, n := at(s, st)
		if !in(r) {
			return -1
		}
		e := st + n
		for plus && e < len(s) {
			r, _, n := at(s, e)
			if !in(r) {
				break
			}
			e += n
		}
		return e
	}
}

// punctOr returns a test for \p{P} or one of the given ASCII symbols.
func punctOr(extra string) func(rune) bool {
	return func(r rune) bool {
		if r < 0x80 && strings.IndexByte(extra, byte(r)) >= 0 {
			return true
		}
		return unicode.IsPunct(r)
	}
}
