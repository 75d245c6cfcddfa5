package jinja

import "strconv"

// Kwarg is a keyword argument of a call.
type Kwarg struct {
	Name  string
	Value Value
}

// funcObj is a callable: a global function or a bound method.
type funcObj struct {
	name string
	recv string // receiver type of a bound method, "" for functions
	fn   func(r *renderer, args []Value, kw []Kwarg) (Value, error)
}

func (f *funcObj) typeName() string {
	if f.recv != "" {
		return "builtin_function_or_method"
	}
	return "function"
}
func (f *funcObj) module() string { return "" }
func (f *funcObj) repr() string {
	if f.recv != "" {
		return "<built-in method " + f.name + " of " + f.recv + " object at 0x7f3a5c1e2d40>"
	}
	return "<function " + f.name + " at 0x7f3a5c1e2d40>"
}

// Func wraps a Go function as a callable template value, e.g. a global
// such as raise_exception. An error it returns stops rendering; return
// RaiseError(msg) to fail with exactly msg.
func Func(name string, fn func(args []Value, kwargs []Kwarg) (Value, error)) Value {
	return Value{kind: KindObject, ref: &funcObj{name: name, fn: func(r *renderer, a []Value, kw []Kwarg) (Value, error) {
		v, err := fn(a, kw)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				err = &Error{Kind: ErrRuntime, Type: "Error", Msg: err.Error()}
			}
		}
		return v, err
	}}}
}

func builtin(name string, fn func(r *renderer, args []Value, kw []Kwarg) (Value, error)) Value {
	return Value{kind: KindObject, ref: &funcObj{name: name, fn: fn}}
}

func method(name, recv string, fn func(r *renderer, args []Value, kw []Kwarg) (Value, error)) Value {
	return Value{kind: KindObject, ref: &funcObj{name: name, recv: recv, fn: fn}}
}

// macroObj is a macro bound to the scope it was defined in.
type macroObj struct {
	m     *macroNode
	scope *scope
}

func (*macroObj) typeName() string { return "Macro" }
func (*macroObj) module() string   { return "jinja2.runtime" }
func (m *macroObj) repr() string   { return "<Macro " + quote(m.m.name) + ">" }

func (r *renderer) evalArgs(a *callArgs, sc *scope) ([]Value, []Kwarg, error) {
	args := make([]Value, 0, len(a.args))
	for _, x := range a.args {
		v, err := r.eval(x, sc)
		if err != nil {
			return nil, nil, err
		}
		args = append(args, v)
	}
	var kw []Kwarg
	for i, x := range a.kwValues {
		v, err := r.eval(x, sc)
		if err != nil {
			return nil, nil, err
		}
		kw = append(kw, Kwarg{a.kwNames[i], v})
	}
	if a.dynArgs != nil {
		v, err := r.eval(a.dynArgs, sc)
		if err != nil {
			return nil, nil, err
		}
		items, err := r.iterate(v)
		if err != nil {
			return nil, nil, err
		}
		args = append(args, items...)
	}
	if a.dynKwargs != nil {
		v, err := r.eval(a.dynKwargs, sc)
		if err != nil {
			return nil, nil, err
		}
		d, ok := v.AsDict()
		if !ok {
			return nil, nil, typeErr("argument after ** must be a mapping, not %s", typeName(v))
		}
		for i, k := range d.keys {
			if k.kind != KindString {
				return nil, nil, typeErr("keywords must be strings")
			}
			kw = append(kw, Kwarg{k.s, d.vals[i]})
		}
	}
	return args, kw, nil
}

// call calls a callable value.
func (r *renderer) call(fn Value, args []Value, kw []Kwarg) (Value, error) {
	switch fn.kind {
	case KindUndefined:
		return Value{}, fn.undefinedError()
	case KindObject:
		switch f := fn.ref.(type) {
		case *funcObj:
			return f.fn(r, args, kw)
		case *macroObj:
			return r.callMacro(f, args, kw)
		case *loopObj:
			if f.recurse == nil {
				return Value{}, typeErr("The loop must have the 'recursive' marker to be called recursively.")
			}
			if len(args) != 1 || len(kw) > 0 {
				return Value{}, typeErr("loop() takes exactly one argument")
			}
			return f.recurse(args[0])
		case *joiner:
			return f.call(), nil
		}
	}
	return Value{}, typeErr("'%s' object is not callable", typeName(fn))
}

func (r *renderer) callMacro(mo *macroObj, args []Value, kw []Kwarg) (Value, error) {
	m := mo.m
	if err := r.enterCall(); err != nil {
		return Value{}, err
	}
	defer r.leaveCall()
	sc := newScope(mo.scope)
	n := len(m.params)
	kwLeft := append([]Kwarg(nil), kw...)
	take := func(name string) (Value, bool) {
		for i, k := range kwLeft {
			if k.Name == name {
				kwLeft = append(kwLeft[:i], kwLeft[i+1:]...)
				return k.Value, true
			}
		}
		return Value{}, false
	}
	foundCaller := false
	for i, name := range m.params {
		if i < len(args) {
			sc.set(name, args[i])
			if name == "caller" {
				foundCaller = true
			}
			continue
		}
		if name == "caller" {
			foundCaller = true
		}
		if v, ok := take(name); ok {
			sc.set(name, v)
			continue
		}
		if d := i - (n - len(m.defaults)); d >= 0 {
			v, err := r.eval(m.defaults[d], sc)
			if err != nil {
				return Value{}, err
			}
			sc.set(name, v)
			continue
		}
		sc.set(name, undefHint("parameter '"+name+"' was not provided"))
	}
	if m.caller && !foundCaller {
		c, ok := take("caller")
		if !ok {
			c = undefHint("No caller defined")
		}
		sc.set("caller", c)
	}
	if m.kwargs {
		d := NewDict()
		for _, k := range kwLeft {
			d.Set(k.Name, k.Value)
		}
		sc.set("kwargs", d.Value())
	} else if len(kwLeft) > 0 {
		for _, k := range kwLeft {
			if k.Name == "caller" {
				return Value{}, typeErr("macro '%s' was invoked with two values for the special caller argument. This is most likely a bug.", m.name)
			}
		}
		return Value{}, typeErr("macro '%s' takes no keyword argument '%s'", m.name, kwLeft[0].Name)
	}
	if m.varargs {
		var extra []Value
		if len(args) > n {
			extra = args[n:]
		}
		sc.set("varargs", Tuple(extra...))
	} else if len(args) > n {
		return Value{}, typeErr("macro '%s' takes not more than %s argument(s)", m.name, strconv.Itoa(n))
	}
	s, err := r.capture(m.body, sc)
	if err != nil {
		return Value{}, err
	}
	return String(s), nil
}

func (r *renderer) execCallBlock(n *callBlockNode, sc *scope) error {
	fn, err := r.eval(n.call.fn, sc)
	if err != nil {
		return err
	}
	args, kw, err := r.evalArgs(&n.call.callArgs, sc)
	if err != nil {
		return err
	}
	kw = append(kw, Kwarg{"caller", Value{kind: KindObject, ref: &macroObj{m: n.macro, scope: sc}}})
	v, err := r.call(fn, args, kw)
	if err != nil {
		return err
	}
	return r.out.write(str(v))
}
