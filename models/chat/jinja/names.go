package jinja

// checkNames reports the first unknown filter or test, as jinja2's
// compiler does, except where jinja2 defers the error to when the filter
// is called: inside an if statement or a conditional expression (a "soft"
// frame). Loop, macro, call, filter, set-block and with bodies start a new
// frame that is not soft.
func checkNames(body []node, soft bool) error {
	for _, n := range body {
		if err := checkNode(n, soft); err != nil {
			return err
		}
	}
	return nil
}

func checkNode(n node, soft bool) error {
	switch t := n.(type) {
	case *outputNode:
		return checkExpr(t.x, soft)
	case *ifNode:
		for i, c := range t.conds {
			if err := first(checkExpr(c, true), checkNames(t.bodies[i], true)); err != nil {
				return err
			}
		}
		return checkNames(t.else_, true)
	case *forNode:
		return first(checkExpr(t.iter, soft), checkExpr(t.filter, false), checkNames(t.body, false),
			checkNames(t.else_, false))
	case *setNode:
		return checkExpr(t.value, soft)
	case *setBlockNode:
		return checkFiltered(&t.filteredBody)
	case *filterBlockNode:
		return checkFiltered(&t.filteredBody)
	case *macroNode:
		for _, d := range t.defaults {
			if err := checkExpr(d, false); err != nil {
				return err
			}
		}
		return checkNames(t.body, false)
	case *callBlockNode:
		return first(checkExpr(t.call, soft), checkNode(t.macro, false))
	case *withNode:
		for _, v := range t.values {
			if err := checkExpr(v, soft); err != nil {
				return err
			}
		}
		return checkNames(t.body, false)
	case *scopeNode:
		return checkNames(t.body, false)
	case *seqNode:
		return checkNames(t.body, soft)
	}
	return nil
}

func checkFiltered(b *filteredBody) error {
	for _, f := range b.filters {
		if err := checkExpr(f, false); err != nil {
			return err
		}
	}
	return checkNames(b.body, false)
}

// checkExpr checks the filters and tests of an expression; a conditional
// expression makes everything in it soft.
func checkExpr(x expr, soft bool) error {
	var err error
	var visit func(x expr, soft bool)
	visit = func(x expr, soft bool) {
		if x == nil || err != nil {
			return
		}
		switch t := x.(type) {
		case *condExpr:
			soft = true
		case *filterExpr:
			if t.fn == nil && !soft {
				err = assertionErr(t.ln, "No filter named '%s'.", t.name)
				return
			}
		case *testExpr:
			if t.fn == nil && !soft {
				err = assertionErr(t.ln, "No test named '%s'.", t.name)
				return
			}
		}
		forChildren(x, func(c expr) { visit(c, soft) })
	}
	visit(x, soft)
	return err
}

func first(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
