package tokenizer

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// The o200k pattern (GPT-4o, Llama 4, Phi-4) and Mistral's tekken pattern
// split words at case changes:
//
//	P? U* L+ C? | P? U+ L* C? | \p{N}{1,3} | ' ?[^\s\p{L}\p{N}]+[\r\n/]*' | \s*[\r\n]+ | \s+(?!\S) | \s+
//
// with P = [^\r\n\p{L}\p{N}], U = [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}],
// L = [\p{Ll}\p{Lm}\p{Lo}\p{M}] and C an optional contraction ('s, 'll, ...,
// ASCII case-insensitive). Tekken has no C and single digits.
const (
	upperClass = `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`
	lowerClass = `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`
	notLN      = `[^\r\n\p{L}\p{N}]?`
	o200kTail  = `| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	patO200k   = notLN + upperClass + `*` + lowerClass + `+` + contrHF + `?|` +
		notLN + upperClass + `+` + lowerClass + `*` + contrHF + `?|\p{N}{1,3}` + o200kTail
	patTekken = notLN + upperClass + `*` + lowerClass + `+|` +
		notLN + upperClass + `+` + lowerClass + `*|\p{N}` + o200kTail
)

// Case bits of a rune: in U, in L (Lm, Lo and M are in both).
const (
	caseU uint8 = 1 << iota
	caseL
)

var (
	caseOnce sync.Once
	bmpCase  []uint8
)

func caseSlow(r rune) uint8 {
	var c uint8
	if unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M) {
		c |= caseU
	}
	if unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M) {
		c |= caseL
	}
	return c
}

// caseOf returns the case bits of the rune at s[i] and its size.
func caseOf(s string, i int) (uint8, int) {
	r, n := rune(s[i]), 1
	if r >= utf8.RuneSelf {
		r, n = utf8.DecodeRuneInString(s[i:])
	}
	if r < 0x10000 {
		caseOnce.Do(func() {
			bmpCase = make([]uint8, 0x10000)
			for r := range bmpCase {
				bmpCase[r] = caseSlow(rune(r))
			}
		})
		return bmpCase[r], n
	}
	return caseSlow(r), n
}

// spanCase returns the end of the run of runes from s[i] that have bit.
func spanCase(s string, i int, bit uint8) int {
	for i < len(s) {
		c, n := caseOf(s, i)
		if c&bit == 0 {
			break
		}
		i += n
	}
	return i
}

// upperLower matches U* L+ from s[i] with the regex's backtracking: when no
// L follows the U run, the last rune of the run that is also in L ends it.
func upperLower(s string, i int) int {
	j := spanCase(s, i, caseU)
	if k := spanCase(s, j, caseL); k > j {
		return k
	}
	end := -1
	for p := i; p < j; {
		c, n := caseOf(s, p)
		if c&caseL != 0 {
			end = p + n
		}
		p += n
	}
	return end
}

// upperThenLower matches U+ L* from s[i].
func upperThenLower(s string, i int) int {
	j := spanCase(s, i, caseU)
	if j == i {
		return -1
	}
	return spanCase(s, j, caseL)
}

// o200kScan scans the o200k pattern (contractions, up to 3 digits) or the
// tekken one (neither).
func o200kScan(contractions bool, maxDigits int) scanFunc {
	return func(s string, i int) int {
		r, cl, n := at(s, i)
		// P can take r; the words need a cased rune after it or at i.
		optional := r != '\r' && r != '\n' && cl != clLetter && cl != clNumber && i+n < len(s)
		here, _ := caseOf(s, i)
		var after uint8
		if optional {
			after, _ = caseOf(s, i+n)
		}
		for k := 0; k < 2 && (here != 0 || after != 0); k++ {
			word := upperLower
			if k == 1 {
				word = upperThenLower
			}
			e := -1
			if after != 0 {
				e = word(s, i+n)
			}
			if e < 0 && here != 0 {
				e = word(s, i)
			}
			if e >= 0 {
				if contractions && e < len(s) && s[e] == '\'' {
					if c := contraction(s, e+1, true); c > 0 {
						e = c
					}
				}
				return e
			}
		}
		if cl == clNumber {
			return spanClassMax(s, i, clNumber, maxDigits)
		}
		st := i
		if r == ' ' {
			st = i + 1
		}
		if st < len(s) {
			if _, c2, _ := at(s, st); c2 == clOther {
				e := spanClass(s, st, clOther)
				for e < len(s) && (s[e] == '\r' || s[e] == '\n' || s[e] == '/') {
					e++
				}
				return e
			}
		}
		if cl != clSpace {
			return -1
		}
		return spanSpaceNewline(s, i)
	}
}
