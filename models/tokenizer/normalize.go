package tokenizer

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// normalizer rewrites the text of a segment before pre-tokenization.
type normalizer interface {
	normalize(s string) string
}

// unicodeNorm is one of NFC, NFD, NFKC, NFKD.
type unicodeNorm struct{ form norm.Form }

func (n unicodeNorm) normalize(s string) string {
	if n.form == norm.NFC && quickNFC(s) {
		return s
	}
	return n.form.String(s) // returns s itself when it is normal
}

// lowercase maps every rune to its lowercase, rune by rune (U+0130 becomes
// "i̇" as in Rust's char::to_lowercase).
type lowercase struct{}

func (lowercase) normalize(s string) string {
	return strings.Map(func(r rune) rune { return unicode.ToLower(r) },
		strings.ReplaceAll(s, "\u0130", "i\u0307"))
}

// strip removes leading and/or trailing whitespace.
type strip struct{ left, right bool }

func (n strip) normalize(s string) string {
	if n.left {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
	}
	if n.right {
		s = strings.TrimRightFunc(s, unicode.IsSpace)
	}
	return s
}

// prepend puts a string in front of a non-empty segment.
type prepend struct{ prefix string }

func (n prepend) normalize(s string) string {
	if s == "" {
		return s
	}
	return n.prefix + s
}

// replace substitutes every match of a pattern (a literal or a regex).
type replace struct {
	m       matcher
	content string
}

func (n replace) normalize(s string) string {
	if lit, ok := n.m.(literalMatcher); ok {
		if lit.lit == "" {
			return s
		}
		return strings.ReplaceAll(s, lit.lit, n.content)
	}
	return replaceSpans(s, n.m, n.content)
}

// replaceSpans rewrites every match of m in s by content.
func replaceSpans(s string, m matcher, content string) string {
	var b strings.Builder
	for _, sp := range collectSpans(m, s) {
		if sp.match {
			b.WriteString(content)
		} else {
			b.WriteString(s[sp.start:sp.end])
		}
	}
	return b.String()
}

// byteLevelNorm maps bytes to the byte-level alphabet.
type byteLevelNorm struct{}

func (byteLevelNorm) normalize(s string) string { return byteLevelEncode(s) }

// stripAccents removes combining marks.
type stripAccents struct{}

func (stripAccents) normalize(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, s)
}

// normSequence applies normalizers in order.
type normSequence []normalizer

func (q normSequence) normalize(s string) string {
	for _, n := range q {
		s = n.normalize(s)
	}
	return s
}
