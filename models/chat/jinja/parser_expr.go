package jinja

import (
	"slices"
	"strconv"
	"strings"
)

type tupleOpts struct {
	simplified bool     // primaries only (assignment targets)
	condexpr   bool     // allow "a if b else c"
	end        []string // extra names that end the tuple
	explicit   bool     // inside parentheses: () is an empty tuple
	namespace  bool     // allow ns.attr targets
}

func (p *parser) isTupleEnd(end []string) bool {
	t := p.cur()
	switch t.typ {
	case tVarEnd, tBlockEnd, tEOF:
		return true
	case tOp:
		return t.val == ")"
	case tName:
		return slices.Contains(end, t.val)
	}
	return false
}

// parseTuple parses an expression, or a tuple when commas follow.
func (p *parser) parseTuple(o tupleOpts) (expr, error) {
	ln := p.cur().line
	var items []expr
	isTuple := false
	for {
		if len(items) > 0 {
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
		if p.isTupleEnd(o.end) {
			break
		}
		var x expr
		var err error
		if o.simplified {
			x, err = p.parsePrimary(o.namespace)
		} else {
			x, err = p.parseExpression(o.condexpr)
		}
		if err != nil {
			return nil, err
		}
		items = append(items, x)
		if !p.isOp(",") {
			break
		}
		isTuple = true
	}
	if !isTuple {
		if len(items) > 0 {
			return items[0], nil
		}
		if !o.explicit {
			return nil, p.fail("Expected an expression, got %s", describe(p.cur()))
		}
	}
	return &tupleExpr{pos{ln}, items}, nil
}

func (p *parser) parseExpression(condexpr bool) (expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	if !condexpr {
		return p.parseOr()
	}
	ln := p.cur().line
	x, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	for n := 0; p.skipName("if"); n++ {
		if n > maxChain {
			return nil, chainErr(ln)
		}
		test, err := p.parseOr()
		if err != nil {
			return nil, err
		}
		c := &condExpr{pos: pos{ln}, test: test, then: x}
		if p.skipName("else") {
			if c.else_, err = p.parseExpression(true); err != nil {
				return nil, err
			}
		}
		x = c
	}
	return x, nil
}

// maxChain bounds the operands of one operator chain (a + b + ...), the
// links of a postfix chain and the filters of a filter chain.
const maxChain = 1000

func chainErr(line int) error {
	return limitErr("expression chain longer than %d links (line %d)", maxChain, line)
}

func (p *parser) parseBinary(ops []string, isName bool, sub func() (expr, error)) (expr, error) {
	x, err := sub()
	if err != nil {
		return nil, err
	}
	for n := 0; ; n++ {
		if n > maxChain {
			return nil, chainErr(p.cur().line)
		}
		t := p.cur()
		if !(isName && t.typ == tName || !isName && t.typ == tOp) || !slices.Contains(ops, t.val) {
			return x, nil
		}
		p.next()
		r, err := sub()
		if err != nil {
			return nil, err
		}
		x = &binaryExpr{pos{t.line}, t.val, x, r}
	}
}

func (p *parser) parseOr() (expr, error) {
	return p.parseBinary([]string{"or"}, true, p.parseAnd)
}

func (p *parser) parseAnd() (expr, error) {
	return p.parseBinary([]string{"and"}, true, p.parseNot)
}

func (p *parser) parseNot() (expr, error) {
	if p.isName("not") {
		t := p.next()
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer p.leave()
		x, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		return &unaryExpr{pos{t.line}, "not", x}, nil
	}
	return p.parseCompare()
}

var compareOps = []string{"==", "!=", "<", "<=", ">", ">="}

func (p *parser) parseCompare() (expr, error) {
	ln := p.cur().line
	x, err := p.parseMath1()
	if err != nil {
		return nil, err
	}
	c := &compareExpr{pos: pos{ln}, first: x}
	for {
		t := p.cur()
		var op string
		switch {
		case t.typ == tOp && slices.Contains(compareOps, t.val):
			op = t.val
			p.next()
		case p.isName("in"):
			op = "in"
			p.next()
		case p.isName("not") && p.look().typ == tName && p.look().val == "in":
			op = "notin"
			p.next()
			p.next()
		default:
			if len(c.ops) == 0 {
				return x, nil
			}
			return c, nil
		}
		r, err := p.parseMath1()
		if err != nil {
			return nil, err
		}
		if len(c.ops) > maxChain {
			return nil, chainErr(ln)
		}
		c.ops = append(c.ops, op)
		c.rest = append(c.rest, r)
	}
}

func (p *parser) parseMath1() (expr, error) {
	return p.parseBinary([]string{"+", "-"}, false, p.parseConcat)
}

func (p *parser) parseConcat() (expr, error) {
	ln := p.cur().line
	x, err := p.parseMath2()
	if err != nil {
		return nil, err
	}
	if !p.isOp("~") {
		return x, nil
	}
	c := &concatExpr{pos{ln}, []expr{x}}
	for p.skipOp("~") {
		if len(c.parts) > maxChain {
			return nil, chainErr(ln)
		}
		r, err := p.parseMath2()
		if err != nil {
			return nil, err
		}
		c.parts = append(c.parts, r)
	}
	return c, nil
}

func (p *parser) parseMath2() (expr, error) {
	return p.parseBinary([]string{"*", "/", "//", "%"}, false, p.parsePow)
}

func (p *parser) parsePow() (expr, error) {
	return p.parseBinary([]string{"**"}, false, func() (expr, error) { return p.parseUnary(true) })
}

func (p *parser) parseUnary(withFilter bool) (expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t := p.cur()
	var x expr
	var err error
	if t.typ == tOp && (t.val == "-" || t.val == "+") {
		p.next()
		inner, err := p.parseUnary(false)
		if err != nil {
			return nil, err
		}
		x = &unaryExpr{pos{t.line}, t.val, inner}
	} else if x, err = p.parsePrimary(false); err != nil {
		return nil, err
	}
	if x, err = p.parsePostfix(x); err != nil {
		return nil, err
	}
	if withFilter {
		return p.parseFilterExpr(x)
	}
	return x, nil
}

func (p *parser) parsePrimary(namespace bool) (expr, error) {
	t := p.cur()
	ps := pos{t.line}
	switch t.typ {
	case tName:
		p.next()
		switch t.val {
		case "true", "True":
			return &constExpr{ps, Bool(true)}, nil
		case "false", "False":
			return &constExpr{ps, Bool(false)}, nil
		case "none", "None":
			return &constExpr{ps, None()}, nil
		}
		if namespace && p.isOp(".") {
			p.next()
			attr, err := p.parseName()
			if err != nil {
				return nil, err
			}
			return &nsRefExpr{ps, t.val, attr}, nil
		}
		return &nameExpr{ps, t.val}, nil
	case tString:
		var b strings.Builder
		for p.cur().typ == tString {
			b.WriteString(p.next().val)
		}
		return &constExpr{ps, String(b.String())}, nil
	case tInt:
		p.next()
		n, err := parseIntText(t)
		if err != nil {
			return nil, err
		}
		return &constExpr{ps, Int(n)}, nil
	case tFloat:
		p.next()
		f, _ := strconv.ParseFloat(strings.ReplaceAll(t.val, "_", ""), 64)
		return &constExpr{ps, Float(f)}, nil
	case tOp:
		switch t.val {
		case "(":
			p.next()
			x, err := p.parseTuple(tupleOpts{condexpr: true, explicit: true})
			if err != nil {
				return nil, err
			}
			return x, p.expectOp(")")
		case "[":
			return p.parseList()
		case "{":
			return p.parseDict()
		}
	case tEOF:
		return nil, p.failEOF(nil)
	}
	return nil, p.fail("unexpected %s", describe(t))
}

func (p *parser) parseList() (expr, error) {
	l := &listExpr{pos: pos{p.next().line}}
	for !p.isOp("]") {
		if len(l.items) > 0 {
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
			if p.isOp("]") {
				break
			}
		}
		x, err := p.parseExpression(true)
		if err != nil {
			return nil, err
		}
		l.items = append(l.items, x)
	}
	return l, p.expectOp("]")
}

func (p *parser) parseDict() (expr, error) {
	d := &dictExpr{pos: pos{p.next().line}}
	for !p.isOp("}") {
		if len(d.keys) > 0 {
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
			if p.isOp("}") {
				break
			}
		}
		k, err := p.parseExpression(true)
		if err != nil {
			return nil, err
		}
		if err := p.expectOp(":"); err != nil {
			return nil, err
		}
		v, err := p.parseExpression(true)
		if err != nil {
			return nil, err
		}
		d.keys = append(d.keys, k)
		d.values = append(d.values, v)
	}
	return d, p.expectOp("}")
}

func parseIntText(t token) (int64, error) {
	n, err := strconv.ParseInt(strings.ReplaceAll(t.val, "_", ""), 0, 64)
	if err != nil {
		return 0, syntaxErr(t.line, "integer literal %s is out of the 64-bit range", t.val)
	}
	return n, nil
}
