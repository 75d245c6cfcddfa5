package jinja

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonParser reads JSON (RFC 8259) straight into template values.
type jsonParser struct {
	data []byte
	pos  int
}

func (p *jsonParser) fail(format string, a ...any) error {
	return fmt.Errorf("%w: JSON at byte %d: %s", ErrInput, p.pos, fmt.Sprintf(format, a...))
}

func (p *jsonParser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (Value, error) {
	if depth > maxJSONDepth {
		return Value{}, p.fail("nested deeper than %d levels", maxJSONDepth)
	}
	p.space()
	if p.pos >= len(p.data) {
		return Value{}, p.fail("unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		return String(s), err
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, lit := range []struct {
		text string
		v    Value
	}{{"true", Bool(true)}, {"false", Bool(false)}, {"null", None()}} {
		if strings.HasPrefix(string(p.data[p.pos:min(p.pos+5, len(p.data))]), lit.text) {
			p.pos += len(lit.text)
			return lit.v, nil
		}
	}
	return Value{}, p.fail("unexpected character %q", p.data[p.pos])
}

// next skips whitespace and consumes c if it comes next.
func (p *jsonParser) next(c byte) bool {
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *jsonParser) array(depth int) (Value, error) {
	p.pos++
	items := []Value{}
	if p.next(']') {
		return List(items...), nil
	}
	for {
		v, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		items = append(items, v)
		if p.next(']') {
			return List(items...), nil
		}
		if !p.next(',') {
			return Value{}, p.fail("expected ',' or ']' in array")
		}
	}
}

func (p *jsonParser) object(depth int) (Value, error) {
	p.pos++
	d := NewDict()
	if p.next('}') {
		return d.Value(), nil
	}
	for {
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return Value{}, p.fail("expected a string key in object")
		}
		k, err := p.str()
		if err != nil {
			return Value{}, err
		}
		if !p.next(':') {
			return Value{}, p.fail("expected ':' after object key")
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		d.Set(k, v)
		if p.next('}') {
			return d.Value(), nil
		}
		if !p.next(',') {
			return Value{}, p.fail("expected ',' or '}' in object")
		}
	}
}

func (p *jsonParser) number() (Value, error) {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.data[p.pos] == '-' {
		p.pos++
	}
	if p.pos < len(p.data) && p.data[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return Value{}, p.fail("bad number")
	}
	isFloat := false
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		isFloat = true
		if digits() == 0 {
			return Value{}, p.fail("bad number")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		isFloat = true
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return Value{}, p.fail("bad number")
		}
	}
	text := string(p.data[start:p.pos])
	if !isFloat {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return Int(n), nil
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return Value{}, p.fail("bad number %q", text)
	}
	return Float(f), nil
}

// str reads a string literal; invalid UTF-8 and lone surrogates become
// U+FFFD, as with encoding/json.
func (p *jsonParser) str() (string, error) {
	p.pos++
	start := p.pos
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		if c == '"' {
			s := p.data[start:p.pos]
			p.pos++
			if utf8.Valid(s) {
				return string(s), nil
			}
			return validUTF8(string(s)), nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		p.pos++
	}
	var b strings.Builder
	b.Write(p.data[start:p.pos])
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return validUTF8(b.String()), nil
		case c < 0x20:
			return "", p.fail("control character in string")
		case c != '\\':
			b.WriteByte(c)
			p.pos++
			continue
		}
		if p.pos+1 >= len(p.data) {
			break
		}
		e := p.data[p.pos+1]
		p.pos += 2
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.fail("bad \\u escape")
			}
			if utf16.IsSurrogate(r) {
				hi := r
				r = utf8.RuneError
				if p.pos+2 <= len(p.data) && p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
					save := p.pos
					p.pos += 2
					lo, ok := p.hex4()
					if d := utf16.DecodeRune(hi, lo); ok && d != utf8.RuneError {
						r = d
					} else {
						p.pos = save
					}
				}
			}
			b.WriteRune(r)
		default:
			return "", p.fail("bad escape \\%c", e)
		}
	}
	return "", p.fail("unterminated string")
}

func (p *jsonParser) hex4() (rune, bool) {
	if p.pos+4 > len(p.data) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.data[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.pos += 4
	return rune(n), true
}

// validUTF8 replaces each invalid byte with U+FFFD, as encoding/json does.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r)
		i += n
	}
	return b.String()
}
