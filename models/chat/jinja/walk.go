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
		walkArgs(&f.callArgs, fn)
	}
	for _, c := range b.body {
		walkNode(c, fn)
	}
}

func walkArgs(a *callArgs, fn func(expr)) {
	for _, x := range a.args {
		walkExpr(x, fn)
	}
	for _, x := range a.kwValues {
		walkExpr(x, fn)
	}
	walkExpr(a.dynArgs, fn)
	walkExpr(a.dynKwargs, fn)
}

// walkExpr calls fn on x and every expression under it.
func walkExpr(x expr, fn func(expr)) {
	if x == nil {
		return
	}
	fn(x)
	switch t := x.(type) {
	case *getattrExpr:
		walkExpr(t.x, fn)
	case *getitemExpr:
		walkExpr(t.x, fn)
		walkExpr(t.key, fn)
	case *sliceExpr:
		walkExpr(t.start, fn)
		walkExpr(t.stop, fn)
		walkExpr(t.step, fn)
	case *callExpr:
		walkExpr(t.fn, fn)
		walkArgs(&t.callArgs, fn)
	case *filterExpr:
		walkExpr(t.x, fn)
		walkArgs(&t.callArgs, fn)
	case *testExpr:
		walkExpr(t.x, fn)
		walkArgs(&t.callArgs, fn)
	case *unaryExpr:
		walkExpr(t.x, fn)
	case *binaryExpr:
		walkExpr(t.l, fn)
		walkExpr(t.r, fn)
	case *concatExpr:
		for _, p := range t.parts {
			walkExpr(p, fn)
		}
	case *compareExpr:
		walkExpr(t.first, fn)
		for _, r := range t.rest {
			walkExpr(r, fn)
		}
	case *condExpr:
		walkExpr(t.test, fn)
		walkExpr(t.then, fn)
		walkExpr(t.else_, fn)
	case *listExpr:
		for _, it := range t.items {
			walkExpr(it, fn)
		}
	case *tupleExpr:
		for _, it := range t.items {
			walkExpr(it, fn)
		}
	case *dictExpr:
		for i := range t.keys {
			walkExpr(t.keys[i], fn)
			walkExpr(t.values[i], fn)
		}
	}
}
