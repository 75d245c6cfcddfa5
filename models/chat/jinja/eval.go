package jinja

// eval evaluates an expression.
func (r *renderer) eval(x expr, sc *scope) (Value, error) {
	if err := r.step(1); err != nil {
		return Value{}, err
	}
	if r.nest++; r.nest > maxNest {
		r.nest--
		return Value{}, newErr(ErrLimit, "RecursionError", "maximum recursion depth exceeded (%d nested evaluations)", maxNest)
	}
	v, err := r.evalExpr(x, sc)
	r.nest--
	if err != nil {
		return Value{}, atLine(err, x.line())
	}
	return v, nil
}

func (r *renderer) evalExpr(x expr, sc *scope) (Value, error) {
	switch t := x.(type) {
	case *constExpr:
		return t.v, nil
	case *nameExpr:
		if v, ok := sc.lookup(t.name); ok {
			return v, nil
		}
		return Undefined(t.name), nil
	case *getattrExpr:
		obj, err := r.eval(t.x, sc)
		if err != nil {
			return Value{}, err
		}
		return getattr(obj, t.attr)
	case *getitemExpr:
		obj, err := r.eval(t.x, sc)
		if err != nil {
			return Value{}, err
		}
		if s, ok := t.key.(*sliceExpr); ok {
			return r.evalSlice(obj, s, sc)
		}
		key, err := r.eval(t.key, sc)
		if err != nil {
			return Value{}, err
		}
		return getitem(obj, key)
	case *callExpr:
		fn, err := r.eval(t.fn, sc)
		if err != nil {
			return Value{}, err
		}
		args, kw, err := r.evalArgs(&t.callArgs, sc)
		if err != nil {
			return Value{}, err
		}
		return r.call(fn, args, kw)
	case *filterExpr:
		v, err := r.eval(t.x, sc)
		if err != nil {
			return Value{}, err
		}
		return r.callFilter(t, v, sc)
	case *testExpr:
		return r.evalTest(t, sc)
	case *unaryExpr:
		return r.evalUnary(t, sc)
	case *binaryExpr:
		return r.evalBinary(t, sc)
	case *concatExpr:
		return r.evalConcat(t, sc)
	case *compareExpr:
		return r.evalCompare(t, sc)
	case *condExpr:
		c, err := r.eval(t.test, sc)
		if err != nil {
			return Value{}, err
		}
		if truth(c) {
			return r.eval(t.then, sc)
		}
		if t.else_ == nil {
			return undefHint("the inline if-expression on line " + itoa(t.ln) +
				" evaluated to false and no else section was defined."), nil
		}
		return r.eval(t.else_, sc)
	case *listExpr:
		items, err := r.evalList(t.items, sc)
		return List(items...), err
	case *tupleExpr:
		items, err := r.evalList(t.items, sc)
		return Tuple(items...), err
	case *dictExpr:
		d := NewDict()
		for i, kx := range t.keys {
			k, err := r.eval(kx, sc)
			if err != nil {
				return Value{}, err
			}
			v, err := r.eval(t.values[i], sc)
			if err != nil {
				return Value{}, err
			}
			if err := d.setKey(k, v); err != nil {
				return Value{}, err
			}
		}
		return d.Value(), nil
	case *nsRefExpr:
		return Value{}, runtimeErr("namespace reference outside of an assignment")
	case *sliceExpr:
		return Value{}, runtimeErr("slice outside of a subscript")
	}
	return Value{}, runtimeErr("unknown expression %T", x)
}

func (r *renderer) evalList(xs []expr, sc *scope) ([]Value, error) {
	items := make([]Value, len(xs))
	for i, x := range xs {
		v, err := r.eval(x, sc)
		if err != nil {
			return nil, err
		}
		items[i] = v
	}
	return items, nil
}

func (r *renderer) evalUnary(t *unaryExpr, sc *scope) (Value, error) {
	v, err := r.eval(t.x, sc)
	if err != nil {
		return Value{}, err
	}
	switch t.op {
	case "not":
		return Bool(!truth(v)), nil
	case "-":
		return negate(v)
	}
	if v.kind == KindUndefined {
		return Value{}, v.undefinedError()
	}
	if !v.isNumber() {
		return Value{}, typeErr("bad operand type for unary +: '%s'", typeName(v))
	}
	if v.kind == KindBool {
		return Int(v.n), nil
	}
	return v, nil
}

func (r *renderer) evalBinary(t *binaryExpr, sc *scope) (Value, error) {
	l, err := r.eval(t.l, sc)
	if err != nil {
		return Value{}, err
	}
	switch t.op {
	case "and":
		if !truth(l) {
			return l, nil
		}
		return r.eval(t.r, sc)
	case "or":
		if truth(l) {
			return l, nil
		}
		return r.eval(t.r, sc)
	}
	rv, err := r.eval(t.r, sc)
	if err != nil {
		return Value{}, err
	}
	return r.binop(t.op, l, rv)
}

func (r *renderer) evalConcat(t *concatExpr, sc *scope) (Value, error) {
	n := 0
	parts := make([]string, len(t.parts))
	for i, p := range t.parts {
		v, err := r.eval(p, sc)
		if err != nil {
			return Value{}, err
		}
		parts[i] = r.str(v)
		n += len(parts[i])
	}
	if err := r.checkLen(n); err != nil {
		return Value{}, err
	}
	b := make([]byte, 0, n)
	for _, p := range parts {
		b = append(b, p...)
	}
	return String(string(b)), nil
}

func (r *renderer) evalCompare(t *compareExpr, sc *scope) (Value, error) {
	l, err := r.eval(t.first, sc)
	if err != nil {
		return Value{}, err
	}
	for i, op := range t.ops {
		rv, err := r.eval(t.rest[i], sc)
		if err != nil {
			return Value{}, err
		}
		ok, err := compare(op, l, rv)
		if err != nil {
			return Value{}, err
		}
		if !ok {
			return Bool(false), nil
		}
		l = rv
	}
	return Bool(true), nil
}

func (r *renderer) evalSlice(obj Value, s *sliceExpr, sc *scope) (Value, error) {
	var parts [3]Value
	for i, x := range []expr{s.start, s.stop, s.step} {
		if x == nil {
			parts[i] = None()
			continue
		}
		v, err := r.eval(x, sc)
		if err != nil {
			return Value{}, err
		}
		parts[i] = v
	}
	return r.sliceValue(obj, parts[0], parts[1], parts[2])
}

func (r *renderer) evalTest(t *testExpr, sc *scope) (Value, error) {
	v, err := r.eval(t.x, sc)
	if err != nil {
		return Value{}, err
	}
	if t.fn == nil {
		return Value{}, runtimeErr("No test named '%s' found.", t.name)
	}
	args, kw, err := r.evalArgs(&t.callArgs, sc)
	if err != nil {
		return Value{}, err
	}
	ok, err := t.fn(r, v, args, kw)
	if err != nil {
		return Value{}, err
	}
	return Bool(ok), nil
}

func (r *renderer) callFilter(f *filterExpr, v Value, sc *scope) (Value, error) {
	if f.fn == nil {
		return Value{}, runtimeErr("No filter named '%s' found.", f.name)
	}
	args, kw, err := r.evalArgs(&f.callArgs, sc)
	if err != nil {
		return Value{}, err
	}
	return f.fn(r, v, args, kw)
}
