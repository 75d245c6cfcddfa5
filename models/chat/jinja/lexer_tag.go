package jinja

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

var operators = []string{
	"//", "**", "==", "!=", ">=", "<=",
	"+", "-", "/", "*", "%", "~", "[", "]", "(", ")", "{", "}", ">", "<", "=", ".", ":", "|", ",", ";",
}

// inside tokenizes a {% ... %} (block) or {{ ... }} tag up to its end.
func (lx *lexer) inside(block bool) error {
	for {
		if lx.pos >= len(lx.src) {
			return nil // the parser reports the unexpected end
		}
		if len(lx.balance) == 0 {
			if end := lx.tagEnd(block); end >= 0 {
				typ := tVarEnd
				if block {
					typ = tBlockEnd
				}
				if err := lx.emit(typ, "", lx.line); err != nil {
					return err
				}
				lx.advance(end)
				return nil
			}
		}
		if err := lx.tagToken(); err != nil {
			return err
		}
	}
}

// tagEnd matches the end of the current tag at pos, or returns -1.
func (lx *lexer) tagEnd(block bool) int {
	if block {
		return matchBlockEnd(lx.src, lx.pos)
	}
	s := lx.src[lx.pos:]
	switch {
	case strings.HasPrefix(s, "-}}"):
		return skipSpace(lx.src, lx.pos+3)
	case strings.HasPrefix(s, "}}"):
		return lx.pos + 2
	}
	return -1
}

// tagToken lexes one token inside a tag.
func (lx *lexer) tagToken() error {
	s, line := lx.src[lx.pos:], lx.line
	if sp := skipSpace(lx.src, lx.pos); sp > lx.pos {
		lx.advance(sp)
		return nil
	}
	if n := matchFloat(s); n > 0 && (lx.pos == 0 || lx.src[lx.pos-1] != '.') {
		lx.advance(lx.pos + n)
		return lx.emit(tFloat, s[:n], line)
	}
	if n := matchInt(s); n > 0 {
		lx.advance(lx.pos + n)
		return lx.emit(tInt, s[:n], line)
	}
	if n := matchName(s); n > 0 {
		lx.advance(lx.pos + n)
		return lx.emit(tName, s[:n], line)
	}
	if s[0] == '"' || s[0] == '\'' {
		n := matchString(s)
		if n < 0 {
			return syntaxErr(line, "unexpected char %s at %d", quote(s[:1]), lx.pos)
		}
		val, err := unescapeString(s[1 : n-1])
		if err != nil {
			return syntaxErr(line, "%s", err.Error())
		}
		lx.advance(lx.pos + n)
		return lx.emit(tString, val, line)
	}
	for _, op := range operators {
		if strings.HasPrefix(s, op) {
			if err := lx.balanceOp(op, line); err != nil {
				return err
			}
			lx.advance(lx.pos + len(op))
			return lx.emit(tOp, op, line)
		}
	}
	r, _ := utf8.DecodeRuneInString(s)
	return syntaxErr(line, "unexpected char %s at %d", quote(string(r)), lx.pos)
}

func (lx *lexer) balanceOp(op string, line int) error {
	switch op {
	case "{":
		lx.balance = append(lx.balance, '}')
	case "(":
		lx.balance = append(lx.balance, ')')
	case "[":
		lx.balance = append(lx.balance, ']')
	case "}", ")", "]":
		if len(lx.balance) == 0 {
			return syntaxErr(line, "unexpected '%s'", op)
		}
		want := lx.balance[len(lx.balance)-1]
		lx.balance = lx.balance[:len(lx.balance)-1]
		if want != op[0] {
			return syntaxErr(line, "unexpected '%s', expected '%c'", op, want)
		}
	}
	return nil
}

// digits matches (\d+_)*\d+ and returns its length.
func digits(s string) int {
	n := 0
	for {
		k := 0
		for k < len(s[n:]) && s[n+k] >= '0' && s[n+k] <= '9' {
			k++
		}
		if k == 0 {
			return 0
		}
		n += k
		if n+1 < len(s) && s[n] == '_' && s[n+1] >= '0' && s[n+1] <= '9' {
			n++
			continue
		}
		return n
	}
}

// matchFloat matches jinja2's float literal: digits with a fraction, an
// exponent, or both.
func matchFloat(s string) int {
	n := digits(s)
	if n == 0 {
		return 0
	}
	frac := 0
	if n < len(s) && s[n] == '.' {
		frac = digits(s[n+1:])
		if frac > 0 {
			frac++
		}
	}
	m := n + frac
	if m < len(s) && (s[m] == 'e' || s[m] == 'E') {
		k := m + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if d := digits(s[k:]); d > 0 {
			return k + d
		}
	}
	if frac > 0 {
		return m
	}
	return 0
}

// matchInt matches jinja2's integer literal (decimal, 0b, 0o, 0x, with
// underscores between digits).
func matchInt(s string) int {
	if len(s) == 0 || s[0] < '0' || s[0] > '9' {
		return 0
	}
	if s[0] == '0' && len(s) > 2 {
		var ok func(byte) bool
		switch s[1] {
		case 'b', 'B':
			ok = func(c byte) bool { return c == '0' || c == '1' }
		case 'o', 'O':
			ok = func(c byte) bool { return c >= '0' && c <= '7' }
		case 'x', 'X':
			ok = func(c byte) bool {
				return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
			}
		}
		if ok != nil {
			n := 2
			for n < len(s) {
				if ok(s[n]) {
					n++
				} else if s[n] == '_' && n+1 < len(s) && ok(s[n+1]) {
					n += 2
				} else {
					break
				}
			}
			if n > 2 {
				return n
			}
		}
	}
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	if s[0] == '0' {
		isDigit = func(c byte) bool { return c == '0' }
	}
	n := 1
	for n < len(s) {
		if isDigit(s[n]) {
			n++
		} else if s[n] == '_' && n+1 < len(s) && isDigit(s[n+1]) {
			n += 2
		} else {
			break
		}
	}
	return n
}

// matchName matches a Python identifier.
func matchName(s string) int {
	n := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		start := r == '_' || unicode.IsLetter(r)
		if !start && (n == 0 || !(unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) ||
			unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r))) {
			break
		}
		n += size
	}
	return n
}

// matchString matches a quoted string with backslash escapes and returns
// its length including quotes, or -1 when it is not closed.
func matchString(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i + 1
		}
	}
	return -1
}
