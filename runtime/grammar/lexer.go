package grammar

import (
	"strconv"
	"unicode/utf8"
)

// literal reads a quoted string into one class element per code point.
func (p *parser) literal() ([]sym, error) {
	p.pos++ // opening quote
	var seq []sym
	for {
		if p.eof() || p.peek() == '\n' {
			return nil, p.errorf("unterminated string in rule %q", p.rule)
		}
		if p.peek() == '"' {
			p.pos++
			return seq, nil
		}
		r, err := p.char()
		if err != nil {
			return nil, err
		}
		seq = append(seq, p.b.class(newClass([]runeRange{{r, r}}, false)))
	}
}

// charClass reads [...] or [^...].
func (p *parser) charClass() (class, error) {
	p.pos++ // [
	neg := false
	if p.peek() == '^' {
		neg = true
		p.pos++
	}
	var ranges []runeRange
	for {
		if p.eof() || p.peek() == '\n' {
			return class{}, p.errorf("unterminated character class in rule %q", p.rule)
		}
		if p.peek() == ']' {
			p.pos++
			return newClass(ranges, neg), nil
		}
		lo, err := p.char()
		if err != nil {
			return class{}, err
		}
		hi := lo
		if p.peek() == '-' && p.pos+1 < len(p.src) && p.src[p.pos+1] != ']' {
			p.pos++
			if hi, err = p.char(); err != nil {
				return class{}, err
			}
			if hi < lo {
				return class{}, p.errorf("range %q-%q is reversed in rule %q", lo, hi, p.rule)
			}
		}
		ranges = append(ranges, runeRange{lo, hi})
	}
}

// char reads one character of a literal or class, escapes included.
func (p *parser) char() (rune, error) {
	c := p.peek()
	if c != '\\' {
		r, n := utf8.DecodeRuneInString(p.src[p.pos:])
		p.pos += n
		return r, nil
	}
	if p.pos+1 >= len(p.src) {
		return 0, p.errorf("escape at end of input")
	}
	e := p.src[p.pos+1]
	p.pos += 2
	switch e {
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'f':
		return '\f', nil
	case 'b':
		return '\b', nil
	case '0':
		return 0, nil
	case '\\', '"', '[', ']', '-', '^', '/', '\'', '.', '(', ')', '|', '*', '+', '?', '{', '}':
		return rune(e), nil
	case 'x':
		return p.hexChar(2)
	case 'u':
		return p.hexChar(4)
	case 'U':
		return p.hexChar(8)
	}
	return 0, p.errorf("unknown escape \\%c in rule %q", e, p.rule)
}

func (p *parser) hexChar(n int) (rune, error) {
	if len(p.src)-p.pos < n {
		return 0, p.errorf("short hex escape in rule %q", p.rule)
	}
	v, err := strconv.ParseUint(p.src[p.pos:p.pos+n], 16, 32)
	if err != nil {
		return 0, p.errorf("bad hex escape %q in rule %q", p.src[p.pos:p.pos+n], p.rule)
	}
	p.pos += n
	if v > maxRune || v >= 0xD800 && v <= 0xDFFF {
		return 0, p.errorf("escape \\%X is not a Unicode scalar value in rule %q", v, p.rule)
	}
	return rune(v), nil
}
