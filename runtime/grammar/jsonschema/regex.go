package jsonschema

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// genPattern makes a string matching a regular expression. The subset
// handled: literals and escapes, classes with ranges and negation, \d \w
// \s and their negations, ".", groups (also (?:...)), alternation, the
// quantifiers ? * + {m} {m,} {m,n} (lazy ones as greedy), and ^ and $ at
// the ends. Without ^ (or $) any text may come before (or after). Other
// constructs (backreferences, lookaround, \b, ...) are refused. Control
// characters other than tab, newline and carriage return are never made.
func (c *converter) genPattern(pattern, hint string) (string, error) {
	p := &rxParser{src: pattern}
	body := pattern
	anchoredStart := strings.HasPrefix(body, "^")
	if anchoredStart {
		p.pos = 1
	}
	anchoredEnd := strings.HasSuffix(body, "$") && !strings.HasSuffix(body, `\$`)
	if anchoredEnd {
		p.src = body[:len(body)-1]
	}
	expr, err := p.alternation()
	if err == nil && p.pos < len(p.src) {
		err = p.errorf("unexpected %q", p.src[p.pos])
	}
	if err != nil {
		return "", fmt.Errorf("%w: pattern %q at %s: %w", ErrUnsupported, pattern, hint, err)
	}
	any := "( [^\"\\\\\\x00-\\x1F] | " + c.primitive("json-esc") + " )*"
	parts := []string{`"\""`}
	if !anchoredStart {
		parts = append(parts, any)
	}
	parts = append(parts, "( "+expr+" )")
	if !anchoredEnd {
		parts = append(parts, any)
	}
	parts = append(parts, `"\""`)
	return c.rule(hint+"-pattern", strings.Join(parts, " "))
}

// rxParser reads a regular expression and writes grammar text that spells
// matching strings as JSON string content.
type rxParser struct {
	src string
	pos int
}

func (p *rxParser) errorf(format string, args ...any) error {
	return fmt.Errorf("at offset %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *rxParser) more() bool { return p.pos < len(p.src) }

func (p *rxParser) alternation() (string, error) {
	var alts []string
	for {
		seq, err := p.sequence()
		if err != nil {
			return "", err
		}
		alts = append(alts, seq)
		if !p.more() || p.src[p.pos] != '|' {
			return strings.Join(alts, " | "), nil
		}
		p.pos++
	}
}

func (p *rxParser) sequence() (string, error) {
	var parts []string
	for p.more() && p.src[p.pos] != '|' && p.src[p.pos] != ')' {
		atom, err := p.atom()
		if err != nil {
			return "", err
		}
		q, err := p.quantifier()
		if err != nil {
			return "", err
		}
		parts = append(parts, "( "+atom+" )"+q)
	}
	if len(parts) == 0 {
		return `""`, nil
	}
	return strings.Join(parts, " "), nil
}

func (p *rxParser) atom() (string, error) {
	r, n := utf8.DecodeRuneInString(p.src[p.pos:])
	switch r {
	case '(':
		p.pos++
		if strings.HasPrefix(p.src[p.pos:], "?:") {
			p.pos += 2
		} else if strings.HasPrefix(p.src[p.pos:], "?") {
			return "", p.errorf("group modifier (?%c", p.src[min(p.pos+1, len(p.src)-1)])
		}
		inner, err := p.alternation()
		if err != nil {
			return "", err
		}
		if !p.more() || p.src[p.pos] != ')' {
			return "", p.errorf("missing )")
		}
		p.pos++
		return inner, nil
	case '[':
		set, err := p.class()
		if err != nil {
			return "", err
		}
		return set.grammar()
	case '.':
		p.pos++
		return runeSet{{0, '\n' - 1}, {'\n' + 1, utf8.MaxRune}}.grammar()
	case '\\':
		set, err := p.escape(false)
		if err != nil {
			return "", err
		}
		return set.grammar()
	case '^', '$':
		return "", p.errorf("anchor %c inside the pattern", r)
	case '*', '+', '?':
		return "", p.errorf("%c with nothing to repeat", r)
	}
	p.pos += n
	return runeSet{{r, r}}.grammar()
}

// quantifier reads ?, *, +, {m}, {m,}, {m,n} (a "?" after one is dropped).
func (p *rxParser) quantifier() (string, error) {
	if !p.more() {
		return "", nil
	}
	q := ""
	switch c := p.src[p.pos]; c {
	case '?', '*', '+':
		p.pos++
		q = string(c)
	case '{':
		end := strings.IndexByte(p.src[p.pos:], '}')
		if end < 0 {
			return "", nil // a literal brace follows
		}
		body := p.src[p.pos+1 : p.pos+end]
		lo, hi, ok := strings.Cut(body, ",")
		m, err1 := strconv.Atoi(lo)
		n, err2 := m, error(nil)
		if ok && hi != "" {
			n, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil {
			return "", nil
		}
		if m > maxRepeat || n > maxRepeat || n < m && (!ok || hi != "") {
			return "", p.errorf("repetition {%s}", body)
		}
		p.pos += end + 1
		q = "{" + body + "}"
	default:
		return "", nil
	}
	if p.more() && p.src[p.pos] == '?' {
		p.pos++ // lazy: same strings
	} else if p.more() && p.src[p.pos] == '+' {
		return "", p.errorf("possessive quantifier")
	}
	return q, nil
}
