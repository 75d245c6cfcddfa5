package jinja

// parsePostfix parses attribute, item and call trailers.
func (p *parser) parsePostfix(x expr) (expr, error) { return p.parseTrailers(x, false) }

// parseFilterExpr parses filter, test and call trailers.
func (p *parser) parseFilterExpr(x expr) (expr, error) { return p.parseTrailers(x, true) }

func (p *parser) parseTrailers(x expr, filters bool) (expr, error) {
	for n := 0; ; n++ {
		if n > maxChain {
			return nil, chainErr(p.cur().line)
		}
		var err error
		switch {
		case p.isOp("("):
			x, err = p.parseCall(x)
		case !filters && (p.isOp(".") || p.isOp("[")):
			x, err = p.parseSubscript(x)
		case filters && p.isOp("|"):
			var fs []*filterExpr
			if fs, err = p.parseFilterChain(x, false); err == nil {
				x = fs[len(fs)-1]
			}
		case filters && p.isName("is"):
			x, err = p.parseTest(x)
		default:
			return x, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func (p *parser) parseSubscript(x expr) (expr, error) {
	t := p.next()
	ps := pos{t.line}
	if t.val == "." {
		a := p.next()
		switch a.typ {
		case tName:
			return &getattrExpr{ps, x, a.val}, nil
		case tInt:
			n, err := parseIntText(a)
			if err != nil {
				return nil, err
			}
			return &getitemExpr{ps, x, &constExpr{pos{a.line}, Int(n)}}, nil
		}
		return nil, syntaxErr(a.line, "expected name or number")
	}
	var args []expr
	for !p.isOp("]") {
		if len(args) > 0 {
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
		a, err := p.parseSubscribed()
		if err != nil {
			return nil, err
		}
		args = append(args, a)
	}
	if err := p.expectOp("]"); err != nil {
		return nil, err
	}
	switch len(args) {
	case 0:
		return nil, syntaxErr(t.line, "expected subscript expression")
	case 1:
		return &getitemExpr{ps, x, args[0]}, nil
	}
	return &getitemExpr{ps, x, &tupleExpr{ps, args}}, nil
}

// parseSubscribed parses an index or a slice a:b:c.
func (p *parser) parseSubscribed() (expr, error) {
	ps := pos{p.cur().line}
	var parts [3]expr
	if !p.isOp(":") {
		x, err := p.parseExpression(true)
		if err != nil || !p.isOp(":") {
			return x, err
		}
		parts[0] = x
	}
	p.next() // the first colon
	for i := 1; i < 3; i++ {
		if i == 2 && !p.skipOp(":") {
			break
		}
		if p.isOp(":") || p.isOp("]") || p.isOp(",") {
			continue
		}
		x, err := p.parseExpression(true)
		if err != nil {
			return nil, err
		}
		parts[i] = x
	}
	return &sliceExpr{ps, parts[0], parts[1], parts[2]}, nil
}

func (p *parser) parseCall(x expr) (expr, error) {
	ln := p.cur().line
	a, err := p.parseCallArgs()
	if err != nil {
		return nil, err
	}
	return &callExpr{pos{ln}, x, a}, nil
}

func (p *parser) parseCallArgs() (callArgs, error) {
	var a callArgs
	open := p.cur()
	if err := p.expectOp("("); err != nil {
		return a, err
	}
	bad := func() error { return syntaxErr(open.line, "invalid syntax for function call expression") }
	for first := true; !p.isOp(")"); first = false {
		if !first {
			if err := p.expectOp(","); err != nil {
				return a, err
			}
			if p.isOp(")") {
				break
			}
		}
		switch {
		case p.isOp("*"):
			if a.dynArgs != nil || a.dynKwargs != nil {
				return a, bad()
			}
			p.next()
			x, err := p.parseExpression(true)
			if err != nil {
				return a, err
			}
			a.dynArgs = x
		case p.isOp("**"):
			if a.dynKwargs != nil {
				return a, bad()
			}
			p.next()
			x, err := p.parseExpression(true)
			if err != nil {
				return a, err
			}
			a.dynKwargs = x
		case p.cur().typ == tName && p.look().typ == tOp && p.look().val == "=":
			if a.dynKwargs != nil {
				return a, bad()
			}
			name := p.next().val
			p.next()
			x, err := p.parseExpression(true)
			if err != nil {
				return a, err
			}
			a.kwNames = append(a.kwNames, name)
			a.kwValues = append(a.kwValues, x)
		default:
			if a.dynArgs != nil || a.dynKwargs != nil || len(a.kwNames) > 0 {
				return a, bad()
			}
			x, err := p.parseExpression(true)
			if err != nil {
				return a, err
			}
			a.args = append(a.args, x)
		}
	}
	return a, p.expectOp(")")
}

// parseDottedName parses a filter or test name (which may contain dots).
func (p *parser) parseDottedName() (string, int, error) {
	t, err := p.expect(tName)
	if err != nil {
		return "", 0, err
	}
	name := t.val
	for p.skipOp(".") {
		n, err := p.parseName()
		if err != nil {
			return "", 0, err
		}
		name += "." + n
	}
	return name, t.line, nil
}

// parseFilterChain parses "|f(args)|g..." (or "f(args)|g" when inline)
// applied to x and returns every filter, the last being the outermost.
func (p *parser) parseFilterChain(x expr, inline bool) ([]*filterExpr, error) {
	var out []*filterExpr
	for inline || p.isOp("|") {
		if len(out) > maxChain {
			return nil, chainErr(p.cur().line)
		}
		if !inline {
			p.next()
		}
		inline = false
		name, ln, err := p.parseDottedName()
		if err != nil {
			return nil, err
		}
		// An unknown filter stays nil: checkNames decides whether it is an
		// error now or, inside an if, only when it is called.
		f := &filterExpr{pos: pos{ln}, x: x, name: name, fn: filterTable[name]}
		if p.isOp("(") {
			if f.callArgs, err = p.parseCallArgs(); err != nil {
				return nil, err
			}
		}
		out = append(out, f)
		x = f
	}
	return out, nil
}

func (p *parser) parseTest(x expr) (expr, error) {
	t := p.next() // "is"
	negated := p.skipName("not")
	name, ln, err := p.parseDottedName()
	if err != nil {
		return nil, err
	}
	te := &testExpr{pos: pos{ln}, x: x, name: name, fn: testTable[name]}
	c := p.cur()
	switch {
	case p.isOp("("):
		if te.callArgs, err = p.parseCallArgs(); err != nil {
			return nil, err
		}
	case (c.typ == tName || c.typ == tString || c.typ == tInt || c.typ == tFloat ||
		p.isOp("[") || p.isOp("{")) && !(p.isName("else") || p.isName("or") || p.isName("and")):
		if p.isName("is") {
			return nil, p.fail("You cannot chain multiple tests with is")
		}
		arg, err := p.parsePrimary(false)
		if err != nil {
			return nil, err
		}
		if arg, err = p.parsePostfix(arg); err != nil {
			return nil, err
		}
		te.args = []expr{arg}
	}
	if negated {
		return &unaryExpr{pos{t.line}, "not", te}, nil
	}
	return te, nil
}
