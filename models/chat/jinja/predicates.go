package jinja

type testFunc func(r *renderer, v Value, args []Value, kw []Kwarg) (bool, error)

// testTable holds jinja2's built-in tests.
var testTable map[string]testFunc

func unary(fn func(Value) bool) testFunc {
	return func(r *renderer, v Value, args []Value, kw []Kwarg) (bool, error) {
		if len(args)+len(kw) > 0 {
			return false, typeErr("test takes 1 positional argument but %d were given", 1+len(args)+len(kw))
		}
		return fn(v), nil
	}
}

func binaryTest(name string, fn func(a, b Value) (bool, error)) testFunc {
	return func(r *renderer, v Value, args []Value, kw []Kwarg) (bool, error) {
		b, err := bind(name, []string{"other"}, args, kw)
		if err != nil {
			return false, err
		}
		if !b.has(0) {
			return false, required(name, "other")
		}
		return fn(v, b.get(0, None()))
	}
}

func cmpTest(op string) testFunc {
	return binaryTest(op, func(a, b Value) (bool, error) { return compare(op, a, b) })
}

func parity(odd bool) testFunc {
	return func(r *renderer, v Value, args []Value, kw []Kwarg) (bool, error) {
		if v.kind == KindUndefined {
			return false, v.undefinedError()
		}
		if !v.isNumber() {
			return false, typeErr("unsupported operand type(s) for %%: '%s' and 'int'", typeName(v))
		}
		m, err := intOrFloatMod(v, Int(2))
		if err != nil {
			return false, err
		}
		if odd {
			return equal(m, Int(1)), nil
		}
		return equal(m, Int(0)), nil
	}
}

func intOrFloatMod(a, b Value) (Value, error) {
	if a.isIntLike() && b.isIntLike() {
		return intOp("%", a.n, b.n)
	}
	return floatOp("%", a.asFloat(), b.asFloat())
}

func isSequence(v Value) bool {
	switch v.kind {
	case KindUndefined, KindString, KindList, KindTuple, KindDict:
		return true
	case KindIter:
		it := v.ref.(*iterator)
		return it.sub
	}
	return false
}

func isIterable(v Value) bool {
	switch v.kind {
	case KindUndefined, KindString, KindList, KindTuple, KindDict, KindIter:
		return true
	}
	return false
}

func isCallable(v Value) bool {
	switch v.kind {
	case KindUndefined:
		return true
	case KindObject:
		switch o := v.ref.(type) {
		case *funcObj, *macroObj, *joiner:
			return true
		case *loopObj:
			return o != nil
		}
	}
	return false
}

func init() {
	eq := cmpTest("==")
	ne := cmpTest("!=")
	lt, le, gt, ge := cmpTest("<"), cmpTest("<="), cmpTest(">"), cmpTest(">=")
	testTable = map[string]testFunc{
		"defined":   unary(func(v Value) bool { return v.kind != KindUndefined }),
		"undefined": unary(func(v Value) bool { return v.kind == KindUndefined }),
		"none":      unary(func(v Value) bool { return v.kind == KindNone }),
		"boolean":   unary(func(v Value) bool { return v.kind == KindBool }),
		"false":     unary(func(v Value) bool { return v.kind == KindBool && v.n == 0 }),
		"true":      unary(func(v Value) bool { return v.kind == KindBool && v.n != 0 }),
		"integer":   unary(func(v Value) bool { return v.kind == KindInt }),
		"float":     unary(func(v Value) bool { return v.kind == KindFloat }),
		"number":    unary(Value.isNumber),
		"string":    unary(func(v Value) bool { return v.kind == KindString }),
		"mapping":   unary(func(v Value) bool { return v.kind == KindDict }),
		"sequence":  unary(isSequence),
		"iterable":  unary(isIterable),
		"callable":  unary(isCallable),
		"escaped":   unary(func(v Value) bool { return v.kind == KindString && v.safe }),
		"lower":     unary(func(v Value) bool { return pyIsLower(str(v)) }),
		"upper":     unary(func(v Value) bool { return pyIsUpper(str(v)) }),
		"odd":       parity(true),
		"even":      parity(false),
		"divisibleby": binaryTest("test_divisibleby", func(a, b Value) (bool, error) {
			if err := undefinedOperand(a, b); err != nil {
				return false, err
			}
			if !a.isNumber() || !b.isNumber() {
				return false, unsupported("%", a, b)
			}
			m, err := intOrFloatMod(a, b)
			return err == nil && equal(m, Int(0)), err
		}),
		"sameas": binaryTest("test_sameas", func(a, b Value) (bool, error) { return sameAs(a, b), nil }),
		"in":     binaryTest("test_in", func(a, b Value) (bool, error) { return contains(b, a) }),
		"filter": unary(func(v Value) bool { _, ok := filterTable[v.s]; return v.kind == KindString && ok }),
		"test":   unary(func(v Value) bool { _, ok := testTable[v.s]; return v.kind == KindString && ok }),
		"==":     eq, "eq": eq, "equalto": eq,
		"!=": ne, "ne": ne,
		"<": lt, "lt": lt, "lessthan": lt,
		"<=": le, "le": le,
		">": gt, "gt": gt, "greaterthan": gt,
		">=": ge, "ge": ge,
	}
}

// sameAs approximates Python's "is": singletons and small values by value,
// containers by identity.
func sameAs(a, b Value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case KindNone, KindUndefined:
		return true
	case KindBool, KindInt:
		return a.n == b.n
	case KindFloat:
		return a.f == b.f
	case KindString:
		return a.s == b.s
	case KindList, KindTuple:
		return len(a.items) == len(b.items) && (len(a.items) == 0 || &a.items[0] == &b.items[0])
	}
	return a.ref == b.ref
}
