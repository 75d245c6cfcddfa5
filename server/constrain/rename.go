package constrain

import "strings"

// prefixRules returns GBNF source with every rule name, where defined and
// where used, prefixed by p, so that the rules of several grammars can
// live in one. String literals, character classes, repetition bounds and
// comments are copied unchanged.
func prefixRules(src, p string) string {
	var b strings.Builder
	b.Grow(len(src) + len(src)/4)
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '"':
			j := skipQuoted(src, i, '"')
			b.WriteString(src[i:j])
			i = j
		case c == '[':
			j := skipQuoted(src, i, ']')
			b.WriteString(src[i:j])
			i = j
		case c == '{':
			j := strings.IndexByte(src[i:], '}')
			if j < 0 {
				j = len(src) - i - 1
			}
			b.WriteString(src[i : i+j+1])
			i += j + 1
		case c == '#':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			b.WriteString(src[i : i+j])
			i += j
		case isNameChar(c):
			j := i
			for j < len(src) && isNameChar(src[j]) {
				j++
			}
			b.WriteString(p)
			b.WriteString(src[i:j])
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// skipQuoted returns the index after the literal or class that starts at
// src[i] and ends with an unescaped end byte (or at the end of the line).
func skipQuoted(src string, i int, end byte) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case end:
			return j + 1
		case '\n':
			return j
		}
	}
	return len(src)
}

// isNameChar reports a byte of a GBNF rule name.
func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}
