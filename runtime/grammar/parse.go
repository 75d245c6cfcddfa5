package grammar

import (
	"fmt"
	"unicode/utf8"
)

// Parse compiles GBNF source into a Grammar whose start rule is "root".
func Parse(src string) (*Grammar, error) {
	return ParseRoot(src, "root")
}

// ParseRoot compiles GBNF source with the given start rule.
func ParseRoot(src, root string) (*Grammar, error) {
	if len(src) > maxSourceLen {
		return nil, fmt.Errorf("%w: source of %d bytes (at most %d)", ErrTooComplex, len(src), maxSourceLen)
	}
	if !utf8.ValidString(src) {
		return nil, fmt.Errorf("%w: source is not valid UTF-8", ErrSyntax)
	}
	p := &parser{src: src, b: newBuilder(), line: 1}
	if err := p.parseRules(); err != nil {
		return nil, err
	}
	return p.b.compile(root)
}

// parser reads GBNF text. Newlines end a rule, except inside parentheses
// and after "|"; a line that starts with "|" continues the rule before.
type parser struct {
	src  string
	pos  int
	line int
	b    *builder
	rule string // the rule being defined, to name synthetic rules
	nest int    // parentheses open at the position, bounded by maxNest
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: line %d: %s", ErrSyntax, p.line, fmt.Sprintf(format, args...))
}

func (p *parser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

// space skips blanks and comments, and newlines too when newlines is set.
func (p *parser) space(newlines bool) {
	for !p.eof() {
		switch c := p.peek(); {
		case c == ' ' || c == '\t' || c == '\r':
			p.pos++
		case c == '#':
			for !p.eof() && p.peek() != '\n' {
				p.pos++
			}
		case c == '\n' && newlines:
			p.pos++
			p.line++
		default:
			return
		}
	}
}

func isWordChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

func (p *parser) name() string {
	start := p.pos
	for !p.eof() && isWordChar(p.peek()) {
		p.pos++
	}
	return p.src[start:p.pos]
}

func (p *parser) parseRules() error {
	for {
		p.space(true)
		if p.eof() {
			return nil
		}
		line := p.line
		name := p.name()
		if name == "" {
			return p.errorf("expected a rule name, found %q", p.src[p.pos:min(p.pos+10, len(p.src))])
		}
		p.space(false)
		if !p.consume("::=") {
			return p.errorf("expected ::= after %q", name)
		}
		p.space(true)
		idx, err := p.b.rule(name, line)
		if err != nil {
			return err
		}
		if p.b.rules[idx].defined {
			return p.errorf("rule %q defined twice", name)
		}
		p.rule = name
		alts, err := p.alternates(false)
		if err != nil {
			return err
		}
		if err := p.b.define(idx, alts); err != nil {
			return err
		}
		p.space(false)
		if !p.eof() && p.peek() != '\n' && !p.ruleStartsHere() {
			return p.errorf("unexpected %q in rule %q", p.peek(), name)
		}
	}
}

func (p *parser) consume(s string) bool {
	if len(p.src)-p.pos >= len(s) && p.src[p.pos:p.pos+len(s)] == s {
		p.pos += len(s)
		return true
	}
	return false
}

// alternates reads sequences separated by "|".
func (p *parser) alternates(nested bool) ([][]sym, error) {
	var alts [][]sym
	for {
		seq, err := p.sequence(nested)
		if err != nil {
			return nil, err
		}
		alts = append(alts, seq)
		if !nested {
			p.continuation()
		}
		if p.peek() != '|' {
			return alts, nil
		}
		p.pos++
		p.space(true)
	}
}

// continuation moves past line ends when the next non-blank line starts
// with "|".
func (p *parser) continuation() {
	save, line := p.pos, p.line
	p.space(true)
	if p.peek() != '|' {
		p.pos, p.line = save, line
	}
}

// sequence reads elements up to "|", ")", the end of the line or a new
// rule.
func (p *parser) sequence(nested bool) ([]sym, error) {
	var seq []sym
	last := -1 // start in seq of the last element, for a repetition
	var lastGroup [][]sym
	for {
		p.space(nested)
		if p.eof() {
			return seq, nil
		}
		c := p.peek()
		start := len(seq)
		var group [][]sym
		switch {
		case c == '"':
			lit, err := p.literal()
			if err != nil {
				return nil, err
			}
			if len(seq)+len(lit) > maxElems {
				return nil, fmt.Errorf("%w: more than %d grammar elements in rule %q", ErrTooComplex, maxElems, p.rule)
			}
			seq = append(seq, lit...)
			if len(lit) > 1 {
				group = [][]sym{lit}
			}
		case c == '[':
			cl, err := p.charClass()
			if err != nil {
				return nil, err
			}
			seq = append(seq, p.b.class(cl))
		case c == '.':
			p.pos++
			seq = append(seq, p.b.class(newClass([]runeRange{{0, maxRune}}, false)))
		case c == '(':
			if p.nest >= maxNest {
				return nil, fmt.Errorf("%w: line %d: groups nested more than %d deep in rule %q", ErrTooComplex, p.line, maxNest, p.rule)
			}
			p.pos++
			p.nest++
			p.space(true)
			alts, err := p.alternates(true)
			p.nest--
			if err != nil {
				return nil, err
			}
			p.space(true)
			if p.peek() != ')' {
				return nil, p.errorf("expected ) in rule %q", p.rule)
			}
			p.pos++
			s, err := p.groupSym(alts)
			if err != nil {
				return nil, err
			}
			seq = append(seq, s)
			group = alts
		case isWordChar(c):
			if p.ruleStartsHere() {
				return seq, nil
			}
			line := p.line
			idx, err := p.b.rule(p.name(), line)
			if err != nil {
				return nil, err
			}
			seq = append(seq, sym{ref: true, idx: idx})
		case c == '*' || c == '+' || c == '?' || c == '{':
			if last < 0 {
				return nil, p.errorf("%q with nothing to repeat in rule %q", c, p.rule)
			}
			var err error
			if seq, err = p.repetition(seq, last, lastGroup); err != nil {
				return nil, err
			}
			last, lastGroup = -1, nil
			continue
		default:
			return seq, nil
		}
		last, lastGroup = start, group
	}
}

// ruleStartsHere reports whether a name followed by ::= is ahead.
func (p *parser) ruleStartsHere() bool {
	save := p.pos
	defer func() { p.pos = save }()
	p.name()
	p.space(false)
	return p.consume("::=")
}

// groupSym returns the element for a parenthesized group: its only
// element when it is a single one, else a new rule.
func (p *parser) groupSym(alts [][]sym) (sym, error) {
	if len(alts) == 1 && len(alts[0]) == 1 {
		return alts[0][0], nil
	}
	idx, err := p.b.synthetic(p.rule, alts)
	return sym{ref: true, idx: idx}, err
}
