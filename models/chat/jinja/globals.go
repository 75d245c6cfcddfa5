package jinja

// maxRange is the sandbox's MAX_RANGE.
const maxRange = 100000

var builtinGlobals map[string]Value

func init() {
	builtinGlobals = map[string]Value{
		"range":     builtin("range", globalRange),
		"dict":      builtin("dict", globalDict),
		"namespace": builtin("namespace", globalNamespace),
		"cycler":    builtin("cycler", globalCycler),
		"joiner":    builtin("joiner", globalJoiner),
		"lipsum": builtin("generate_lorem_ipsum", func(*renderer, []Value, []Kwarg) (Value, error) {
			return Value{}, runtimeErr("lipsum() is not supported: its text is random")
		}),
	}
}

func toIndex(v Value) (int64, error) {
	if v.kind == KindUndefined {
		return 0, v.undefinedError()
	}
	if !v.isIntLike() {
		return 0, typeErr("'%s' object cannot be interpreted as an integer", typeName(v))
	}
	return v.n, nil
}

func globalRange(r *renderer, args []Value, kw []Kwarg) (Value, error) {
	if len(kw) > 0 {
		return Value{}, typeErr("range() takes no keyword arguments")
	}
	if len(args) == 0 || len(args) > 3 {
		return Value{}, typeErr("range expected at most 3 arguments, got %d", len(args))
	}
	n := make([]int64, len(args))
	for i, a := range args {
		v, err := toIndex(a)
		if err != nil {
			return Value{}, err
		}
		n[i] = v
	}
	start, stop, step := int64(0), n[0], int64(1)
	if len(n) > 1 {
		start, stop = n[0], n[1]
	}
	if len(n) > 2 {
		step = n[2]
	}
	if step == 0 {
		return Value{}, valueErr("range() arg 3 must not be zero")
	}
	var count int64
	switch {
	case step > 0 && stop > start:
		count = (stop-start-1)/step + 1
	case step < 0 && start > stop:
		count = (start-stop-1)/(-step) + 1
	}
	if count > maxRange || count < 0 {
		return Value{}, newErr(ErrRuntime, "OverflowError",
			"Range too big. The sandbox blocks ranges larger than MAX_RANGE (%d).", maxRange)
	}
	if err := r.useItems(int(count)); err != nil {
		return Value{}, err
	}
	items := make([]Value, count)
	for i := range items {
		items[i] = Int(start + int64(i)*step)
	}
	return rangeValue(start, stop, step, items), nil
}

// dictFrom is Python's dict(*args, **kwargs).
func (r *renderer) dictFrom(name string, args []Value, kw []Kwarg) (*Dict, error) {
	if len(args) > 1 {
		return nil, typeErr("%s expected at most 1 argument, got %d", name, len(args))
	}
	d := NewDict()
	if len(args) == 1 {
		src := args[0]
		if sd, ok := src.AsDict(); ok {
			if err := r.useItems(3 * sd.Len()); err != nil {
				return nil, err
			}
			d = sd.copy()
		} else {
			items, err := r.iterate(src)
			if err != nil {
				return nil, err
			}
			for i, it := range items {
				pair, err := r.iterate(it)
				if err != nil {
					return nil, typeErr("cannot convert dictionary update sequence element #%d to a sequence", i)
				}
				if len(pair) != 2 {
					return nil, valueErr("dictionary update sequence element #%d has length %d; 2 is required", i, len(pair))
				}
				if err := d.setKey(pair[0], pair[1]); err != nil {
					return nil, err
				}
			}
		}
	}
	for _, k := range kw {
		d.Set(k.Name, k.Value)
	}
	return d, nil
}

func globalDict(r *renderer, args []Value, kw []Kwarg) (Value, error) {
	d, err := r.dictFrom("dict", args, kw)
	if err != nil {
		return Value{}, err
	}
	return d.Value(), nil
}

// namespace is jinja2's Namespace: the one object templates may modify.
type namespace struct{ d *Dict }

func (*namespace) typeName() string { return "Namespace" }
func (*namespace) module() string   { return "jinja2.utils" }
func (n *namespace) repr() string   { return repr(Value{kind: KindObject, ref: n}) }

func globalNamespace(r *renderer, args []Value, kw []Kwarg) (Value, error) {
	d, err := r.dictFrom("dict", args, kw)
	if err != nil {
		return Value{}, err
	}
	return Value{kind: KindObject, ref: &namespace{d: d}}, nil
}

// cycler is jinja2's Cycler.
type cycler struct {
	items []Value
	pos   int
}

func (*cycler) typeName() string { return "Cycler" }
func (*cycler) module() string   { return "jinja2.utils" }
func (*cycler) repr() string     { return "<jinja2.utils.Cycler object at 0x7f3a5c1e2d40>" }

func (c *cycler) attr(name string) (Value, bool) {
	switch name {
	case "current":
		return c.items[c.pos], true
	case "next", "__next__":
		return method(name, "Cycler", func(*renderer, []Value, []Kwarg) (Value, error) {
			v := c.items[c.pos]
			c.pos = (c.pos + 1) % len(c.items)
			return v, nil
		}), true
	case "reset":
		return method(name, "Cycler", func(*renderer, []Value, []Kwarg) (Value, error) {
			c.pos = 0
			return None(), nil
		}), true
	}
	return Value{}, false
}

func globalCycler(r *renderer, args []Value, kw []Kwarg) (Value, error) {
	if len(kw) > 0 {
		return Value{}, typeErr("cycler() got an unexpected keyword argument '%s'", kw[0].Name)
	}
	if len(args) == 0 {
		return Value{}, runtimeErr("at least one item has to be provided")
	}
	return Value{kind: KindObject, ref: &cycler{items: args}}, nil
}

// joiner is jinja2's Joiner: "" on the first call, then the separator.
type joiner struct {
	sep  string
	used bool
}

func (*joiner) typeName() string { return "Joiner" }
func (*joiner) module() string   { return "jinja2.utils" }
func (*joiner) repr() string     { return "<jinja2.utils.Joiner object at 0x7f3a5c1e2d40>" }

func (j *joiner) call() Value {
	if !j.used {
		j.used = true
		return String("")
	}
	return String(j.sep)
}

func globalJoiner(r *renderer, args []Value, kw []Kwarg) (Value, error) {
	p, err := bindArgs("joiner", []string{"sep"}, args, kw)
	if err != nil {
		return Value{}, err
	}
	sep := ", "
	if p[0].kind != KindUndefined {
		sep = str(p[0])
	}
	return Value{kind: KindObject, ref: &joiner{sep: sep}}, nil
}
