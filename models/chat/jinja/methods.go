package jinja

type methodFunc func(r *renderer, self Value, args []Value, kw []Kwarg) (Value, error)

// unsafeMethods are the methods that modify lists and dicts, which the
// immutable sandbox refuses.
var unsafeMethods = map[Kind]map[string]bool{
	KindList: {"append": true, "clear": true, "pop": true, "reverse": true, "insert": true,
		"sort": true, "extend": true, "remove": true},
	KindDict: {"clear": true, "pop": true, "popitem": true, "setdefault": true, "update": true},
}

func boundMethod(obj Value, name string, table map[string]methodFunc) (Value, bool) {
	if unsafeMethods[obj.kind][name] {
		return unsafeUndef(obj, name), true
	}
	m, ok := table[name]
	if !ok {
		return Value{}, false
	}
	return method(name, typeName(obj), func(r *renderer, args []Value, kw []Kwarg) (Value, error) {
		if len(kw) > 0 && !keywordMethods[name] {
			return Value{}, typeErr("%s.%s() takes no keyword arguments", typeName(obj), name)
		}
		return m(r, obj, args, kw)
	}), true
}

// keywordMethods are the methods that accept keyword arguments (Python
// 3.11); all others are positional only.
var keywordMethods = map[string]bool{"split": true, "rsplit": true, "splitlines": true, "format": true}

var dictMethods = map[string]methodFunc{
	"get": func(r *renderer, self Value, args []Value, kw []Kwarg) (Value, error) {
		if len(kw) > 0 {
			return Value{}, typeErr("get() takes no keyword arguments")
		}
		if len(args) < 1 || len(args) > 2 {
			return Value{}, typeErr("get expected at most 2 arguments, got %d", len(args))
		}
		v, ok, err := self.ref.(*Dict).getKey(args[0])
		if err != nil || ok {
			return v, err
		}
		if len(args) == 2 {
			return args[1], nil
		}
		return None(), nil
	},
	"items": func(r *renderer, self Value, args []Value, kw []Kwarg) (Value, error) {
		if err := noArgs("items", args, kw); err != nil {
			return Value{}, err
		}
		items, err := r.dictItems(self.ref.(*Dict))
		return dictView("dict_items", items), err
	},
	"keys": func(r *renderer, self Value, args []Value, kw []Kwarg) (Value, error) {
		if err := noArgs("keys", args, kw); err != nil {
			return Value{}, err
		}
		return dictView("dict_keys", self.ref.(*Dict).keys), nil
	},
	"values": func(r *renderer, self Value, args []Value, kw []Kwarg) (Value, error) {
		if err := noArgs("values", args, kw); err != nil {
			return Value{}, err
		}
		return dictView("dict_values", self.ref.(*Dict).vals), nil
	},
	"copy": func(r *renderer, self Value, args []Value, kw []Kwarg) (Value, error) {
		if err := noArgs("copy", args, kw); err != nil {
			return Value{}, err
		}
		if err := r.useItems(3 * self.ref.(*Dict).Len()); err != nil {
			return Value{}, err
		}
		return self.ref.(*Dict).copy().Value(), nil
	},
}

// dictItems returns the (key, value) tuples of d, charged to the memory
// budget first: the list and a tuple of two per item.
func (r *renderer) dictItems(d *Dict) ([]Value, error) {
	if err := r.useItems(3 * d.Len()); err != nil {
		return nil, err
	}
	items := make([]Value, d.Len())
	for i, k := range d.keys {
		items[i] = Tuple(k, d.vals[i])
	}
	return items, nil
}

func noArgs(name string, args []Value, kw []Kwarg) error {
	if len(args) > 0 || len(kw) > 0 {
		return typeErr("%s() takes no arguments (%d given)", name, len(args)+len(kw))
	}
	return nil
}

func seqIndex(r *renderer, self Value, args []Value, kw []Kwarg) (Value, error) {
	if len(kw) > 0 || len(args) < 1 || len(args) > 3 {
		return Value{}, typeErr("index expected between 1 and 3 arguments")
	}
	lo, hi, _, err := sliceBounds(len(self.items), argOr(args, 1), argOr(args, 2), None())
	if err != nil {
		return Value{}, err
	}
	for i := lo; i < hi; i++ {
		if equal(self.items[i], args[0]) {
			return Int(int64(i)), nil
		}
	}
	return Value{}, valueErr("%s is not in %s", repr(args[0]), typeName(self))
}

func seqCount(r *renderer, self Value, args []Value, kw []Kwarg) (Value, error) {
	if len(kw) > 0 || len(args) != 1 {
		return Value{}, typeErr("count() takes exactly one argument (%d given)", len(args))
	}
	n := 0
	for _, it := range self.items {
		if equal(it, args[0]) {
			n++
		}
	}
	return Int(int64(n)), nil
}

// argOr returns args[i], or None when absent.
func argOr(args []Value, i int) Value {
	if i < len(args) {
		return args[i]
	}
	return None()
}

var listMethods = map[string]methodFunc{
	"index": seqIndex,
	"count": seqCount,
	"copy": func(r *renderer, self Value, args []Value, kw []Kwarg) (Value, error) {
		if err := noArgs("copy", args, kw); err != nil {
			return Value{}, err
		}
		if err := r.useItems(len(self.items)); err != nil {
			return Value{}, err
		}
		return List(append([]Value(nil), self.items...)...), nil
	},
}

var tupleMethods = map[string]methodFunc{"index": seqIndex, "count": seqCount}

var floatMethods = map[string]methodFunc{
	"is_integer": func(r *renderer, self Value, args []Value, kw []Kwarg) (Value, error) {
		if err := noArgs("is_integer", args, kw); err != nil {
			return Value{}, err
		}
		return Bool(self.f == float64(int64(self.f))), nil
	},
}
