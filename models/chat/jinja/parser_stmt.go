package jinja

var statementTags = map[string]bool{
	"if": true, "for": true, "set": true, "macro": true, "call": true, "filter": true, "with": true,
	"print": true, "break": true, "continue": true, "generation": true, "block": true,
	"include": true, "import": true, "from": true, "extends": true, "autoescape": true,
}

func (p *parser) parseStatement() (node, error) {
	t := p.cur()
	if t.typ != tName {
		return nil, p.fail("tag name expected")
	}
	if !statementTags[t.val] {
		msg := "Encountered unknown tag '" + t.val + "'."
		if n := len(p.endStack); n > 0 {
			msg += " Jinja was looking for the following tags: " + quoteAll(p.endStack[n-1]) + "."
		}
		if n := len(p.tagStack); n > 0 {
			msg += " The innermost block that needs to be closed is '" + p.tagStack[n-1] + "'."
		}
		return nil, p.fail("%s", msg)
	}
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	p.tagStack = append(p.tagStack, t.val)
	defer func() { p.tagStack = p.tagStack[:len(p.tagStack)-1] }()
	return p.parseTag(t)
}

func (p *parser) parseTag(t token) (node, error) {
	ps := pos{t.line}
	switch t.val {
	case "if":
		return p.parseIf()
	case "for":
		return p.parseFor()
	case "set":
		return p.parseSet()
	case "macro":
		return p.parseMacro()
	case "call":
		return p.parseCallBlock()
	case "filter":
		p.next()
		filters, err := p.parseFilterChain(nil, true)
		if err != nil {
			return nil, err
		}
		body, err := p.parseBody([]string{"endfilter"}, true)
		return &filterBlockNode{ps, filteredBody{filters, body}}, err
	case "with":
		return p.parseWith()
	case "print":
		return p.parsePrint()
	case "break", "continue":
		p.next()
		if p.loops == 0 {
			return nil, syntaxErr(t.line, "'%s' outside loop", t.val)
		}
		return &loopControl{ps, t.val == "break"}, nil
	case "generation", "block":
		return p.parseScoped(t.val)
	}
	return p.parseUnsupported(t.val)
}

func (p *parser) parsePrint() (node, error) {
	ps := pos{p.next().line}
	var items []expr
	for p.cur().typ != tBlockEnd {
		if len(items) > 0 {
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
		x, err := p.parseExpression(true)
		if err != nil {
			return nil, err
		}
		items = append(items, x)
	}
	seq := &seqNode{pos: ps}
	for _, x := range items {
		seq.body = append(seq.body, &outputNode{ps, x})
	}
	return seq, nil
}

func (p *parser) parseIf() (node, error) {
	n := &ifNode{pos: pos{p.next().line}}
	for {
		cond, err := p.parseTuple(tupleOpts{})
		if err != nil {
			return nil, err
		}
		body, err := p.parseBody([]string{"elif", "else", "endif"}, false)
		if err != nil {
			return nil, err
		}
		n.conds = append(n.conds, cond)
		n.bodies = append(n.bodies, body)
		switch p.next().val {
		case "elif":
			continue
		case "else":
			n.else_, err = p.parseBody([]string{"endif"}, true)
			if err != nil {
				return nil, err
			}
		}
		return n, nil
	}
}

func (p *parser) parseFor() (node, error) {
	n := &forNode{pos: pos{p.next().line}}
	target, err := p.parseAssignTarget([]string{"in"}, false)
	if err != nil {
		return nil, err
	}
	n.target = target
	if err := p.expectName("in"); err != nil {
		return nil, err
	}
	if n.iter, err = p.parseTuple(tupleOpts{end: []string{"recursive"}}); err != nil {
		return nil, err
	}
	if p.skipName("if") {
		if n.filter, err = p.parseExpression(true); err != nil {
			return nil, err
		}
	}
	n.recursive = p.skipName("recursive")
	p.loops++
	n.body, err = p.parseBody([]string{"endfor", "else"}, false)
	p.loops--
	if err != nil {
		return nil, err
	}
	if p.next().val == "else" {
		if n.else_, err = p.parseBody([]string{"endfor"}, true); err != nil {
			return nil, err
		}
	}
	return n, nil
}

func (p *parser) parseSet() (node, error) {
	ps := pos{p.next().line}
	target, err := p.parseAssignTarget(nil, true)
	if err != nil {
		return nil, err
	}
	if p.skipOp("=") {
		value, err := p.parseTuple(tupleOpts{condexpr: true})
		if err != nil {
			return nil, err
		}
		return &setNode{ps, target, value}, nil
	}
	var filters []*filterExpr
	if p.isOp("|") {
		if filters, err = p.parseFilterChain(nil, false); err != nil {
			return nil, err
		}
	}
	body, err := p.parseBody([]string{"endset"}, true)
	return &setBlockNode{ps, target, filteredBody{filters, body}}, err
}

// parseAssignTarget parses a name, a tuple of names or (with namespace) a
// namespace attribute reference.
func (p *parser) parseAssignTarget(end []string, namespace bool) (expr, error) {
	x, err := p.parseTuple(tupleOpts{simplified: true, end: end, namespace: namespace})
	if err != nil {
		return nil, err
	}
	if err := checkAssignable(x); err != nil {
		return nil, err
	}
	return x, nil
}

func checkAssignable(x expr) error {
	switch t := x.(type) {
	case *nameExpr, *nsRefExpr:
		return nil
	case *tupleExpr:
		for _, it := range t.items {
			if err := checkAssignable(it); err != nil {
				return err
			}
		}
		return nil
	case *constExpr:
		return syntaxErr(x.line(), "can't assign to 'const'")
	}
	return syntaxErr(x.line(), "can't assign to this expression")
}

func (p *parser) parseName() (string, error) {
	t, err := p.expect(tName)
	return t.val, err
}

func (p *parser) parseSignature(m *macroNode) error {
	if err := p.expectOp("("); err != nil {
		return err
	}
	for !p.isOp(")") {
		if len(m.params) > 0 {
			if err := p.expectOp(","); err != nil {
				return err
			}
		}
		name, err := p.parseName()
		if err != nil {
			return err
		}
		if p.skipOp("=") {
			d, err := p.parseExpression(true)
			if err != nil {
				return err
			}
			m.defaults = append(m.defaults, d)
		} else if len(m.defaults) > 0 {
			return p.fail("non-default argument follows default argument")
		}
		m.params = append(m.params, name)
	}
	return p.expectOp(")")
}

func (p *parser) parseMacro() (node, error) {
	m := &macroNode{pos: pos{p.next().line}}
	var err error
	if m.name, err = p.parseName(); err != nil {
		return nil, err
	}
	if err := p.parseSignature(m); err != nil {
		return nil, err
	}
	loops := p.loops
	p.loops = 0
	m.body, err = p.parseBody([]string{"endmacro"}, true)
	p.loops = loops
	if err != nil {
		return nil, err
	}
	markMacroUses(m)
	return m, nil
}

func (p *parser) parseCallBlock() (node, error) {
	m := &macroNode{pos: pos{p.next().line}, name: "caller"}
	if p.isOp("(") {
		if err := p.parseSignature(m); err != nil {
			return nil, err
		}
	}
	x, err := p.parseExpression(true)
	if err != nil {
		return nil, err
	}
	call, ok := x.(*callExpr)
	if !ok {
		return nil, syntaxErr(m.ln, "expected call")
	}
	loops := p.loops
	p.loops = 0
	m.body, err = p.parseBody([]string{"endcall"}, true)
	p.loops = loops
	if err != nil {
		return nil, err
	}
	markMacroUses(m)
	return &callBlockNode{m.pos, call, m}, nil
}

func (p *parser) parseWith() (node, error) {
	n := &withNode{pos: pos{p.next().line}}
	for p.cur().typ != tBlockEnd {
		if len(n.targets) > 0 {
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
		t, err := p.parseAssignTarget(nil, false)
		if err != nil {
			return nil, err
		}
		if err := p.expectOp("="); err != nil {
			return nil, err
		}
		v, err := p.parseExpression(true)
		if err != nil {
			return nil, err
		}
		n.targets = append(n.targets, t)
		n.values = append(n.values, v)
	}
	var err error
	n.body, err = p.parseBody([]string{"endwith"}, true)
	return n, err
}

// parseScoped parses {% generation %} and {% block name %}, which render
// their body in place.
func (p *parser) parseScoped(tag string) (node, error) {
	ps := pos{p.next().line}
	name := ""
	if tag == "block" {
		var err error
		if name, err = p.parseName(); err != nil {
			return nil, err
		}
		p.skipName("scoped")
		p.skipName("required")
	}
	body, err := p.parseBody([]string{"end" + tag}, true)
	if err != nil {
		return nil, err
	}
	if name != "" {
		p.skipName(name)
	}
	return &scopeNode{ps, body}, nil
}

// parseUnsupported parses tags that need a template loader or
// autoescaping; they fail when they run, as jinja2 without a loader does.
func (p *parser) parseUnsupported(tag string) (node, error) {
	ps := pos{p.next().line}
	for t := p.cur(); t.typ != tBlockEnd && t.typ != tEOF; t = p.cur() {
		p.next()
	}
	if tag == "autoescape" {
		body, err := p.parseBody([]string{"endautoescape"}, true)
		if err != nil {
			return nil, err
		}
		_ = body
	}
	return &unsupportedNode{ps, tag}, nil
}
