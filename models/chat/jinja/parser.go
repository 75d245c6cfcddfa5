package jinja

import (
	"slices"
	"strings"
)

// maxParseDepth bounds the nesting of blocks and expressions.
const maxParseDepth = 128

type parser struct {
	toks      []token
	i         int
	depth     int
	loops     int // enclosing for bodies, for break/continue
	tagStack  []string
	endStack  [][]string
	macroBody bool
}

func parseTemplate(src string) ([]node, error) {
	toks, err := tokenize(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	body, err := p.subparse(nil)
	if err != nil {
		return nil, err
	}
	if p.cur().typ != tEOF {
		return nil, p.fail("unexpected %s", describe(p.cur()))
	}
	if err := checkNames(body, false); err != nil {
		return nil, err
	}
	return body, nil
}

func (p *parser) cur() token { return p.toks[p.i] }

func (p *parser) look() token {
	if p.i+1 < len(p.toks) {
		return p.toks[p.i+1]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

func (p *parser) fail(format string, a ...any) *Error {
	return syntaxErr(p.cur().line, format, a...)
}

func (p *parser) isName(v string) bool { t := p.cur(); return t.typ == tName && t.val == v }

func (p *parser) isOp(v string) bool { t := p.cur(); return t.typ == tOp && t.val == v }

func (p *parser) skipName(v string) bool {
	if p.isName(v) {
		p.next()
		return true
	}
	return false
}

func (p *parser) skipOp(v string) bool {
	if p.isOp(v) {
		p.next()
		return true
	}
	return false
}

func (p *parser) expectOp(v string) error {
	if !p.skipOp(v) {
		return p.fail("expected token '%s', got %s", v, describe(p.cur()))
	}
	return nil
}

func (p *parser) expect(typ tokType) (token, error) {
	t := p.cur()
	if t.typ != typ {
		if t.typ == tEOF {
			return t, p.failEOF(nil)
		}
		return t, p.fail("expected token '%s', got %s", typeDesc(typ), describe(t))
	}
	return p.next(), nil
}

func (p *parser) expectName(v string) error {
	if !p.skipName(v) {
		return p.fail("expected token '%s', got %s", v, describe(p.cur()))
	}
	return nil
}

func typeDesc(typ tokType) string {
	switch typ {
	case tBlockEnd:
		return "end of statement block"
	case tVarEnd:
		return "end of print statement"
	case tName:
		return "name"
	case tEOF:
		return "end of template"
	}
	return "token"
}

func describe(t token) string {
	switch t.typ {
	case tName, tOp:
		return "'" + t.val + "'"
	case tString:
		return "string"
	case tInt:
		return "integer"
	case tFloat:
		return "float"
	case tData:
		return "template data / text"
	}
	return "'" + typeDesc(t.typ) + "'"
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxParseDepth {
		return limitErr("template nesting deeper than %d levels (line %d)", maxParseDepth, p.cur().line)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// failEOF reports the end of the template inside an open block.
func (p *parser) failEOF(end []string) *Error {
	stack := p.endStack
	if end != nil {
		stack = append(slices.Clip(stack), end)
	}
	msg := "Unexpected end of template."
	if len(stack) > 0 {
		msg += " Jinja was looking for the following tags: " + quoteAll(stack[len(stack)-1]) + "."
	}
	if len(p.tagStack) > 0 {
		msg += " The innermost block that needs to be closed is '" + p.tagStack[len(p.tagStack)-1] + "'."
	}
	return p.fail("%s", msg)
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	return strings.Join(q, " or ")
}

// subparse parses template data, prints and statements up to one of the
// end tags (left as the current token) or the end of the template.
func (p *parser) subparse(end []string) ([]node, error) {
	if end != nil {
		p.endStack = append(p.endStack, end)
		defer func() { p.endStack = p.endStack[:len(p.endStack)-1] }()
	}
	var body []node
	for {
		t := p.cur()
		switch t.typ {
		case tEOF:
			return body, nil
		case tData:
			p.next()
			body = append(body, &textNode{pos{t.line}, t.val})
		case tVarBegin:
			p.next()
			x, err := p.parseTuple(tupleOpts{condexpr: true})
			if err != nil {
				return nil, err
			}
			if _, err := p.expect(tVarEnd); err != nil {
				return nil, err
			}
			body = append(body, &outputNode{pos{t.line}, x})
		case tBlockBegin:
			p.next()
			if c := p.cur(); c.typ == tName && slices.Contains(end, c.val) {
				return body, nil
			}
			n, err := p.parseStatement()
			if err != nil {
				return nil, err
			}
			if n != nil {
				body = append(body, n)
			}
			if _, err := p.expect(tBlockEnd); err != nil {
				return nil, err
			}
		default:
			return nil, p.fail("unexpected %s", describe(t))
		}
	}
}

// parseBody parses the statements of a block up to one of the end tags,
// leaving the end tag current (or consumed with drop).
func (p *parser) parseBody(end []string, drop bool) ([]node, error) {
	p.skipOp(":")
	if _, err := p.expect(tBlockEnd); err != nil {
		return nil, err
	}
	body, err := p.subparse(end)
	if err != nil {
		return nil, err
	}
	if p.cur().typ == tEOF {
		return nil, p.failEOF(end)
	}
	if drop {
		p.next()
	}
	return body, nil
}
