package jinja

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

func runeLen(s string) int { return utf8.RuneCountInString(s) }

var (
	upperCaser = cases.Upper(language.Und)
	lowerCaser = cases.Lower(language.Und)
	foldCaser  = cases.Fold()
)

func pyUpper(s string) string { return upperCaser.String(s) }
func pyLower(s string) string { return lowerCaser.String(s) }

func isCased(r rune) bool { return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) }

// pyTitle is Python's str.title.
func pyTitle(s string) string {
	var b strings.Builder
	prevCased := false
	for _, r := range s {
		if prevCased {
			b.WriteString(pyLower(string(r)))
		} else {
			b.WriteRune(unicode.ToTitle(r))
		}
		prevCased = isCased(r)
	}
	return b.String()
}

// pyCapitalize is Python's str.capitalize.
func pyCapitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToTitle(r)) + pyLower(s[n:])
}

func pySwapcase(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsUpper(r):
			b.WriteString(pyLower(string(r)))
		case unicode.IsLower(r):
			b.WriteString(pyUpper(string(r)))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// stripChars returns the predicate of str.strip's chars argument.
func stripChars(chars Value, fname string) (func(rune) bool, error) {
	switch chars.kind {
	case KindNone, KindUndefined:
		return isSpace, nil
	case KindString:
		set := chars.s
		return func(r rune) bool { return strings.ContainsRune(set, r) }, nil
	}
	return nil, typeErr("%s arg must be None or str", fname)
}

// pySplit is Python's str.split (and rsplit when right).
func pySplit(s string, sep Value, maxsplit int64, right bool) ([]string, error) {
	if maxsplit < 0 {
		maxsplit = int64(len(s)) + 1
	}
	if sep.kind == KindNone || sep.kind == KindUndefined {
		return splitSpace(s, maxsplit, right), nil
	}
	if sep.kind != KindString {
		return nil, typeErr("must be str or None, not %s", typeName(sep))
	}
	if sep.s == "" {
		return nil, valueErr("empty separator")
	}
	if !right {
		return strings.SplitN(s, sep.s, int(min(maxsplit+1, int64(len(s))+1))), nil
	}
	var out []string
	for int64(len(out)) < maxsplit {
		i := strings.LastIndex(s, sep.s)
		if i < 0 {
			break
		}
		out = append(out, s[i+len(sep.s):])
		s = s[:i]
	}
	out = append(out, s)
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

func splitSpace(s string, maxsplit int64, right bool) []string {
	if !right {
		var out []string
		for {
			s = strings.TrimLeftFunc(s, isSpace)
			if s == "" {
				return out
			}
			if int64(len(out)) == maxsplit {
				return append(out, s)
			}
			i := strings.IndexFunc(s, isSpace)
			if i < 0 {
				return append(out, s)
			}
			out = append(out, s[:i])
			s = s[i:]
		}
	}
	var out []string
	for {
		s = strings.TrimRightFunc(s, isSpace)
		if s == "" {
			break
		}
		if int64(len(out)) == maxsplit {
			out = append(out, s)
			break
		}
		i := strings.LastIndexFunc(s, isSpace)
		if i < 0 {
			out = append(out, s)
			break
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		out = append(out, s[i+n:])
		s = s[:i]
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func isLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// pySplitlines is Python's str.splitlines.
func pySplitlines(s string, keepends bool) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexFunc(s, isLineBreak)
		if i < 0 {
			out = append(out, s)
			break
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == '\r' && strings.HasPrefix(s[i+1:], "\n") {
			n = 2
		}
		if keepends {
			out = append(out, s[:i+n])
		} else {
			out = append(out, s[:i])
		}
		s = s[i+n:]
	}
	return out
}

// pyReplace is Python's str.replace.
func pyReplace(s, old, new string, count int64) string {
	if count < 0 {
		count = -1
	}
	if old == "" {
		if count == 0 {
			return s
		}
		var b strings.Builder
		n := int64(0)
		for _, r := range s {
			if count < 0 || n < count {
				b.WriteString(new)
				n++
			}
			b.WriteRune(r)
		}
		if count < 0 || n < count {
			b.WriteString(new)
		}
		return b.String()
	}
	return strings.Replace(s, old, new, int(max(min(count, 1<<31), -1)))
}

// runeRange converts Python start/end (code points, may be negative or
// None) to a byte range of s.
func runeRange(s string, start, end Value) (int, int, error) {
	n := runeLen(s)
	lo, hi, _, err := sliceBounds(n, start, end, None())
	if err != nil {
		return 0, 0, err
	}
	if hi < lo {
		return 0, -1, nil
	}
	return byteOffset(s, lo), byteOffset(s, hi), nil
}

func byteOffset(s string, runes int) int {
	if runes <= 0 {
		return 0
	}
	i := 0
	for j := range s {
		if i == runes {
			return j
		}
		i++
	}
	return len(s)
}

func pad(s string, width int64, fill rune, align byte) string {
	n := int64(runeLen(s))
	if width <= n {
		return s
	}
	total := int(width - n)
	left := 0
	switch align {
	case '>':
		left = total
	case '^':
		left = total / 2
		if total%2 == 1 && width%2 == 1 {
			left++
		}
	}
	f := string(fill)
	return strings.Repeat(f, left) + s + strings.Repeat(f, total-left)
}

func allRunes(s string, f func(rune) bool) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !f(r) {
			return false
		}
	}
	return true
}

func pyIsLower(s string) bool {
	cased := false
	for _, r := range s {
		if unicode.IsUpper(r) || unicode.IsTitle(r) {
			return false
		}
		if unicode.IsLower(r) {
			cased = true
		}
	}
	return cased
}

func pyIsUpper(s string) bool {
	cased := false
	for _, r := range s {
		if unicode.IsLower(r) || unicode.IsTitle(r) {
			return false
		}
		if unicode.IsUpper(r) {
			cased = true
		}
	}
	return cased
}
