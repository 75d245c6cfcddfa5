package jinja

import (
	"strconv"
	"strings"
)

// attrGetter is jinja2's make_attrgetter: "a.b.0" looks up items (then
// attributes) one part at a time; digit parts are integers.
func attrGetter(attr Value, def Value, hasDef bool, post func(Value) Value) func(Value) (Value, error) {
	var parts []Value
	switch attr.kind {
	case KindString:
		for _, p := range strings.Split(attr.s, ".") {
			if n, err := strconv.ParseInt(p, 10, 64); err == nil && isDigits(p) {
				parts = append(parts, Int(n))
			} else {
				parts = append(parts, String(p))
			}
		}
	case KindNone:
	default:
		parts = []Value{attr}
	}
	return func(item Value) (Value, error) {
		for _, p := range parts {
			var err error
			if item, err = getitem(item, p); err != nil {
				return Value{}, err
			}
			if hasDef && item.kind == KindUndefined {
				item = def
			}
		}
		if post != nil {
			item = post(item)
		}
		return item, nil
	}
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func caseFn(cs bool) func(Value) Value {
	if cs {
		return nil
	}
	return ignoreCase
}

func mapItems(items []Value, fn func(Value) (Value, error)) ([]Value, error) {
	out := make([]Value, len(items))
	for i, it := range items {
		v, err := fn(it)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func filterMap(r *renderer, v Value, args []Value, kw []Kwarg) (Value, error) {
	if !truth(v) {
		return generator(nil), nil
	}
	items, err := r.iterate(v)
	if err != nil {
		return Value{}, err
	}
	var fn func(Value) (Value, error)
	if len(args) == 0 && hasKw(kw, "attribute") {
		var attr, def Value
		hasDef := false
		for _, k := range kw {
			switch k.Name {
			case "attribute":
				attr = k.Value
			case "default":
				def, hasDef = k.Value, true
			default:
				return Value{}, newErr(ErrRuntime, "FilterArgumentError", "Unexpected keyword argument '%s'", k.Name)
			}
		}
		fn = attrGetter(attr, def, hasDef && def.kind != KindNone, nil)
	} else {
		if len(args) == 0 {
			return Value{}, newErr(ErrRuntime, "FilterArgumentError", "map requires a filter argument")
		}
		f, err := lookupFilter(args[0])
		if err != nil {
			return Value{}, err
		}
		rest := args[1:]
		fn = func(it Value) (Value, error) { return f(r, it, rest, kw) }
	}
	out, err := mapItems(items, fn)
	if err != nil {
		return Value{}, err
	}
	return generator(out), nil
}

func hasKw(kw []Kwarg, name string) bool {
	for _, k := range kw {
		if k.Name == name {
			return true
		}
	}
	return false
}

func lookupFilter(name Value) (filterFunc, error) {
	f, ok := filterTable[str(name)]
	if !ok || name.kind != KindString {
		return nil, runtimeErr("No filter named %s.", repr(name))
	}
	return f, nil
}

// selectFilter builds select, reject, selectattr and rejectattr.
func selectFilter(keep, byAttr bool) filterFunc {
	return func(r *renderer, v Value, args []Value, kw []Kwarg) (Value, error) {
		if !truth(v) {
			return generator(nil), nil
		}
		items, err := r.iterate(v)
		if err != nil {
			return Value{}, err
		}
		get := func(it Value) (Value, error) { return it, nil }
		if byAttr {
			if len(args) == 0 {
				return Value{}, newErr(ErrRuntime, "FilterArgumentError", "Missing parameter for attribute name")
			}
			get = attrGetter(args[0], Value{}, false, nil)
			args = args[1:]
		}
		test := func(it Value) (bool, error) { return truth(it), nil }
		if len(args) > 0 {
			t, ok := testTable[str(args[0])]
			if !ok || args[0].kind != KindString {
				return Value{}, runtimeErr("No test named %s.", repr(args[0]))
			}
			rest := args[1:]
			test = func(it Value) (bool, error) { return t(r, it, rest, kw) }
		}
		var out []Value
		for _, it := range items {
			x, err := get(it)
			if err != nil {
				return Value{}, err
			}
			ok, err := test(x)
			if err != nil {
				return Value{}, err
			}
			if ok == keep {
				out = append(out, it)
			}
		}
		return generator(out), nil
	}
}

func filterSort(r *renderer, v Value, a bound) (Value, error) {
	items, err := r.iterate(v)
	if err != nil {
		return Value{}, err
	}
	items = append([]Value(nil), items...)
	post := caseFn(truth(a.get(1, Bool(false))))
	var getters []func(Value) (Value, error)
	switch attr := a.get(2, None()); attr.kind {
	case KindNone:
	case KindString:
		for _, p := range strings.Split(attr.s, ",") {
			getters = append(getters, attrGetter(String(p), Value{}, false, post))
		}
	default:
		getters = append(getters, attrGetter(attr, Value{}, false, post))
	}
	var keyErr error
	err = sortValues(items, truth(a.get(0, Bool(false))), func(it Value) Value {
		if getters == nil {
			if post != nil {
				return List(post(it))
			}
			return List(it)
		}
		keys := make([]Value, len(getters))
		for i, g := range getters {
			k, err := g(it)
			if err != nil && keyErr == nil {
				keyErr = err
			}
			keys[i] = k
		}
		return List(keys...)
	})
	if keyErr != nil {
		return Value{}, keyErr
	}
	return List(items...), err
}

func filterUnique(r *renderer, v Value, a bound) (Value, error) {
	items, err := r.iterate(v)
	if err != nil {
		return Value{}, err
	}
	get := attrGetter(a.get(1, None()), Value{}, false, caseFn(truth(a.get(0, Bool(false)))))
	seen := map[hashKey]bool{}
	var out []Value
	for _, it := range items {
		k, err := get(it)
		if err != nil {
			return Value{}, err
		}
		h, err := hashOf(k)
		if err != nil {
			return Value{}, err
		}
		if !seen[h] {
			seen[h] = true
			out = append(out, it)
		}
	}
	return generator(out), nil
}

func minMax(isMax bool) func(*renderer, Value, bound) (Value, error) {
	return func(r *renderer, v Value, a bound) (Value, error) {
		items, err := r.iterate(v)
		if err != nil {
			return Value{}, err
		}
		if len(items) == 0 {
			return undefHint("No aggregated item, sequence was empty."), nil
		}
		get := attrGetter(a.get(1, None()), Value{}, false, caseFn(truth(a.get(0, Bool(false)))))
		best := items[0]
		bk, err := get(best)
		if err != nil {
			return Value{}, err
		}
		for _, it := range items[1:] {
			k, err := get(it)
			if err != nil {
				return Value{}, err
			}
			x, y := k, bk
			if isMax {
				x, y = bk, k
			}
			lt, err := less(x, y)
			if err != nil {
				return Value{}, err
			}
			if lt {
				best, bk = it, k
			}
		}
		return best, nil
	}
}

func filterJoin(r *renderer, v Value, a bound) (Value, error) {
	items, err := r.iterate(v)
	if err != nil {
		return Value{}, err
	}
	if attr := a.get(1, None()); attr.kind != KindNone {
		if items, err = mapItems(items, attrGetter(attr, Value{}, false, nil)); err != nil {
			return Value{}, err
		}
	}
	sep := str(a.get(0, String("")))
	parts := make([]string, len(items))
	n := 0
	for i, it := range items {
		parts[i] = r.str(it)
		n += len(parts[i]) + len(sep)
	}
	if err := r.checkLen(n); err != nil {
		return Value{}, err
	}
	return String(strings.Join(parts, sep)), nil
}

func filterSum(r *renderer, v Value, a bound) (Value, error) {
	items, err := r.iterate(v)
	if err != nil {
		return Value{}, err
	}
	if attr := a.get(0, None()); attr.kind != KindNone {
		if items, err = mapItems(items, attrGetter(attr, Value{}, false, nil)); err != nil {
			return Value{}, err
		}
	}
	total := a.get(1, Int(0))
	if total.kind == KindString {
		return Value{}, typeErr("sum() can't sum strings [use ''.join(seq) instead]")
	}
	for _, it := range items {
		if err := undefinedOperand(total, it); err != nil {
			return Value{}, err
		}
		if total, err = r.add(total, it); err != nil {
			return Value{}, err
		}
	}
	return total, nil
}

// groupTuple is the (grouper, list) named tuple of groupby.
type groupTuple struct{ grouper, list Value }

func filterGroupby(r *renderer, v Value, a bound) (Value, error) {
	if !a.has(0) {
		return Value{}, required("do_groupby", "attribute")
	}
	items, err := r.iterate(v)
	if err != nil {
		return Value{}, err
	}
	items = append([]Value(nil), items...)
	def := a.get(1, None())
	cs := truth(a.get(2, Bool(false)))
	key := attrGetter(a.get(0, None()), def, def.kind != KindNone, caseFn(cs))
	var keyErr error
	keyOf := func(it Value) Value {
		k, err := key(it)
		if err != nil && keyErr == nil {
			keyErr = err
		}
		return k
	}
	if err := sortValues(items, false, keyOf); err != nil {
		return Value{}, err
	}
	real := attrGetter(a.get(0, None()), def, def.kind != KindNone, nil)
	var out []Value
	for i := 0; i < len(items); {
		k := keyOf(items[i])
		j := i + 1
		for j < len(items) && equal(keyOf(items[j]), k) {
			j++
		}
		grouper := k
		if !cs {
			if grouper, err = real(items[i]); err != nil {
				return Value{}, err
			}
		}
		list := List(append([]Value(nil), items[i:j]...)...)
		out = append(out, Value{kind: KindTuple, items: []Value{grouper, list}, ref: &groupTuple{grouper, list}})
		i = j
	}
	if keyErr != nil {
		return Value{}, keyErr
	}
	return List(out...), nil
}
