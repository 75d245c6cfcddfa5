package tokenizer

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// scanFunc returns the end of the match that starts at s[i], or -1 when the
// pattern does not match there. Hand-written scanners for the common split
// patterns implement it; they never return an empty match.
type scanFunc func(s string, i int) int

// scanMatcher runs a scanFunc over a string like a regex find-all.
type scanMatcher struct{ scan scanFunc }

func (m scanMatcher) each(s string, out spanSink) {
	a := gapFiller{out: out}
	for i := 0; i < len(s); {
		if e := m.scan(s, i); e > i {
			a.add(i, e)
			i = e
			continue
		}
		i += runeLen(s, i)
	}
	a.finish(len(s))
}

// charMatcher matches every single rune for which pred holds.
type charMatcher struct{ pred func(rune) bool }

func (m charMatcher) each(s string, out spanSink) {
	a := gapFiller{out: out}
	for i, r := range s {
		if m.pred(r) {
			a.add(i, i+utf8.RuneLen(r))
		}
	}
	a.finish(len(s))
}

// literalMatcher matches every occurrence of a fixed string.
type literalMatcher struct{ lit string }

func (m literalMatcher) each(s string, out spanSink) {
	a := gapFiller{out: out}
	if m.lit != "" {
		for i := 0; ; {
			j := strings.Index(s[i:], m.lit)
			if j < 0 {
				break
			}
			a.add(i+j, i+j+len(m.lit))
			i += j + len(m.lit)
		}
	}
	a.finish(len(s))
}

// regexTimeout bounds one regex search.
const regexTimeout = 10 * time.Second

// regexMatcher is the general fallback: a backtracking regex engine with
// the Oniguruma/PCRE features tokenizer patterns use (\p{L}, lookahead,
// inline flags).
type regexMatcher struct{ re *regexp2.Regexp }

func compileRegex(pattern string) (*regexMatcher, error) {
	re, err := regexp2.Compile(atomicPossessive(pattern), regexp2.None)
	if err != nil {
		return nil, fmt.Errorf("%w: regex %.80q: %.200v", ErrFormat, pattern, err)
	}
	// A pathological pattern must not hang the process: a search that runs
	// this long ends the matching, the rest of the text staying unsplit.
	re.MatchTimeout = regexTimeout
	return &regexMatcher{re: re}, nil
}

func (m *regexMatcher) each(s string, out spanSink) {
	a := gapFiller{out: out}
	match, err := m.re.FindStringMatch(s)
	// rune index -> byte offset, advanced monotonically.
	ri, bi := 0, 0
	toByte := func(r int) int {
		for ri < r && bi < len(s) {
			bi += runeLen(s, bi)
			ri++
		}
		return bi
	}
	for err == nil && match != nil {
		start := toByte(match.Index)
		end := toByte(match.Index + match.Length)
		a.add(start, end)
		match, err = m.re.FindNextMatch(match)
	}
	a.finish(len(s))
}

// runeLen is the byte length of the rune at s[i] (1 for an invalid byte).
func runeLen(s string, i int) int {
	if s[i] < utf8.RuneSelf {
		return 1
	}
	_, n := utf8.DecodeRuneInString(s[i:])
	return n
}

// newPatternMatcher returns a hand scanner when pattern is one of the known
// split patterns, else a compiled regex.
func newPatternMatcher(pattern string) (matcher, error) {
	if m, ok := knownPatterns[pattern]; ok {
		return m, nil
	}
	return compileRegex(pattern)
}
