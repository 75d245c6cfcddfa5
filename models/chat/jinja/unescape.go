package jinja

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// unescapeString decodes the backslash escapes of a string literal as
// jinja2 does (Python's unicode-escape codec).
func unescapeString(s string) (string, error) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		c = s[i]
		switch c {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(c)
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte(11)
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			if !isHex(s[i+1:min(i+1+n, len(s))], n) {
				return "", errors.New(`truncated \` + escName(c) + ` escape`)
			}
			v, _ := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if v > utf8.MaxRune {
				return "", errors.New("illegal Unicode character")
			}
			b.WriteRune(rune(v))
			i += n
		case 'N':
			return "", errors.New(`\N{...} escapes are not supported`)
		default:
			if c >= '0' && c <= '7' {
				v, k := 0, 0
				for k < 3 && i+k < len(s) && s[i+k] >= '0' && s[i+k] <= '7' {
					v = v*8 + int(s[i+k]-'0')
					k++
				}
				b.WriteRune(rune(v))
				i += k - 1
				continue
			}
			b.WriteByte('\\')
			if c < utf8.RuneSelf {
				b.WriteByte(c)
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			b.WriteString(escapeRune(r))
			i += size - 1
		}
	}
	return b.String(), nil
}

func escName(c byte) string {
	switch c {
	case 'x':
		return "xXX"
	case 'u':
		return "uXXXX"
	}
	return "UXXXXXXXX"
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
