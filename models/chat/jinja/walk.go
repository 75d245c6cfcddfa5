package jinja

// markMacroUses records whether a macro body refers to varargs, kwargs or
// caller, which decides (as in jinja2) whether the macro accepts extra
// positional arguments, extra keyword arguments and a caller.
func markMacroUses(m *macroNode) {
	for _, n := range m.body {
		walkNode(n, func(x expr) {
			if nm, ok := x.(*nameExpr); ok {
				switch nm.name {
				case "varargs":
					m.varargs = true
				case "kwargs":
					m.kwargs = true
				case "caller":
					m.caller = true
				}
			}
		})
	}
}

// walkNode calls fn on every expression under n.
func walkNode(n node, fn func(expr)) {
	each := func(body []node) {
		for _, c := range body {
			walkNode(c, fn)
		}
	}
	switch t := n.(type) {
	case *outputNode:
		walkExpr(t.x, fn)
	case *ifNode:
		for i, c := range t.conds {
			walkExpr(c, fn)
			each(t.bodies[i])
		}
		each(t.else_)
	case *forNode:
		walkExpr(t.iter, fn)
		walkExpr(t.filter, fn)
		each(t.body)
		each(t.else_)
	case *setNode:
		walkExpr(t.value, fn)
	case *setBlockNode:
		walkFiltered(&t.filteredBody, fn)
	case *macroNode:
		for _, d := range t.defaults {
			walkExpr(d, fn)
		}
		each(t.body)
	case *callBlockNode:
		walkExpr(t.call, fn)
		walkNode(t.macro, fn)
	case *filterBlockNode:
		walkFiltered(&t.filteredBody, fn)
	case *withNode:
		for _, v := range t.values {
			walkExpr(v, fn)
		}
		each(t.body)
	case *scopeNode:
		each(t.body)
	case *seqNode:
		each(t.body)
	}
}

func walkFiltered(b *filteredBody, fn func(expr)) {
	for _, f := range b.filters {
		argsChildren(&f.callArgs, func(x expr) { walkExpr(x, fn) })
	}
	for _, c := range b.body {
		walkNode(c, fn)
	}
}

// walkExpr calls fn on x and every expression under it.
func walkExpr(x expr, fn func(expr)) {
	if x == nil {
		return
	}
	fn(x)
	forChildren(x, func(c expr) { walkExpr(c, fn) })
}

func argsChildren(a *callArgs, fn func(expr)) {
	for _, x := range a.args {
		fn(x)
	}
	for _, x := range a.kwValues {
		fn(x)
	}
	fn(a.dynArgs)
	fn(a.dynKwargs)
}

// forChildren calls fn on the direct subexpressions of x (some may be nil).
func forChildren(x expr, fn func(expr)) {
	switch t := x.(type) {
	case *getattrExpr:
		fn(t.x)
	case *getitemExpr:
		fn(t.x)
		fn(t.key)
	case *sliceExpr:
		fn(t.start)
		fn(t.stop)
		fn(t.step)
	case *callExpr:
		fn(t.fn)
		argsChildren(&t.callArgs, fn)
	case *filterExpr:
		fn(t.x)
		argsChildren(&t.callArgs, fn)
	case *testExpr:
		fn(t.x)
		argsChildren(&t.callArgs, fn)
	case *unaryExpr:
		fn(t.x)
	case *binaryExpr:
		fn(t.l)
		fn(t.r)
	case *concatExpr:
		for _, p := range t.parts {
			fn(p)
		}
	case *compareExpr:
		fn(t.first)
		for _, r := range t.rest {
			fn(r)
		}
	case *condExpr:
		fn(t.test)
		fn(t.then)
		fn(t.else_)
	case *listExpr:
		for _, it := range t.items {
			fn(it)
		}
	case *tupleExpr:
		for _, it := range t.items {
			fn(it)
		}
	case *dictExpr:
		for i := range t.keys {
			fn(t.keys[i])
			fn(t.values[i])
		}
	}
}
