package jinja

import (
	"math/rand/v2"
	"sort"
)

func filterLength(r *renderer, v Value, _ bound) (Value, error) {
	n, err := length(v)
	return Int(int64(n)), err
}

func filterList(r *renderer, v Value, _ bound) (Value, error) {
	items, err := r.iterate(v)
	if err != nil {
		return Value{}, err
	}
	return List(append([]Value(nil), items...)...), nil
}

func filterFirst(r *renderer, v Value, _ bound) (Value, error) {
	if v.kind == KindIter {
		it := v.ref.(*iterator)
		if it.sized {
			if len(it.items) > 0 {
				return it.items[0], nil
			}
		} else if it.pos < len(it.items) {
			it.pos++
			return it.items[it.pos-1], nil
		}
		return undefHint("No first item, sequence was empty."), nil
	}
	items, err := r.iterate(v)
	if err != nil {
		return Value{}, err
	}
	if len(items) == 0 {
		return undefHint("No first item, sequence was empty."), nil
	}
	return items[0], nil
}

// reversible returns the items of a value Python's reversed() accepts.
func (r *renderer) reversible(v Value) ([]Value, bool) {
	switch v.kind {
	case KindIter:
		if it := v.ref.(*iterator); it.sized {
			return it.items, true
		}
		return nil, false
	case KindUndefined, KindString, KindList, KindTuple, KindDict:
		items, err := r.iterate(v)
		return items, err == nil
	}
	return nil, false
}

func filterLast(r *renderer, v Value, _ bound) (Value, error) {
	items, ok := r.reversible(v)
	if !ok {
		return Value{}, typeErr("'%s' object is not reversible", typeName(v))
	}
	if len(items) == 0 {
		return undefHint("No last item, sequence was empty."), nil
	}
	return items[len(items)-1], nil
}

func reversed(items []Value) []Value {
	out := make([]Value, len(items))
	for i, it := range items {
		out[len(items)-1-i] = it
	}
	return out
}

func filterReverse(r *renderer, v Value, _ bound) (Value, error) {
	if v.kind == KindString {
		r := []rune(v.s)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return sameKind(v, string(r)), nil
	}
	if items, ok := r.reversible(v); ok {
		typ := map[Kind]string{KindList: "list_reverseiterator", KindDict: "dict_reversekeyiterator"}[v.kind]
		if typ == "" {
			typ = "reversed"
		}
		return Value{kind: KindIter, ref: &iterator{typ: typ, items: reversed(items)}}, nil
	}
	items, err := r.iterate(v)
	if err != nil {
		return Value{}, newErr(ErrRuntime, "FilterArgumentError", "argument must be iterable")
	}
	return List(reversed(items)...), nil
}

func filterRandom(r *renderer, v Value, _ bound) (Value, error) {
	items, err := r.iterate(v)
	if err != nil {
		return Value{}, err
	}
	if len(items) == 0 {
		return undefHint("No random item, sequence was empty."), nil
	}
	return items[rand.IntN(len(items))], nil
}

func filterBatch(r *renderer, v Value, a bound) (Value, error) {
	n, err := intArg(a.get(0, Value{}), 0)
	if err != nil {
		return Value{}, err
	}
	if !a.has(0) {
		return Value{}, required("do_batch", "linecount")
	}
	items, err := r.iterate(v)
	if err != nil {
		return Value{}, err
	}
	fill := a.get(1, None())
	var out []Value
	var tmp []Value
	for _, it := range items {
		if int64(len(tmp)) == n {
			out = append(out, List(tmp...))
			tmp = nil
		}
		tmp = append(tmp, it)
	}
	if len(tmp) > 0 {
		for fill.kind != KindNone && int64(len(tmp)) < n {
			tmp = append(tmp, fill)
		}
		out = append(out, List(tmp...))
	}
	return generator(out), nil
}

func filterSlice(r *renderer, v Value, a bound) (Value, error) {
	if !a.has(0) {
		return Value{}, required("do_slice", "slices")
	}
	slices, err := intArg(a.get(0, None()), 0)
	if err != nil {
		return Value{}, err
	}
	items, err := r.iterate(v)
	if err != nil {
		return Value{}, err
	}
	if slices <= 0 {
		return Value{}, newErr(ErrRuntime, "ZeroDivisionError", "integer division or modulo by zero")
	}
	if slices > int64(len(items))+maxRange {
		return Value{}, limitErr("too many slices")
	}
	per, extra := len(items)/int(slices), len(items)%int(slices)
	fill := a.get(1, None())
	var out []Value
	offset := 0
	for i := 0; i < int(slices); i++ {
		start := offset + i*per
		if i < extra {
			offset++
		}
		end := offset + (i+1)*per
		tmp := append([]Value(nil), items[start:end]...)
		if fill.kind != KindNone && i >= extra {
			tmp = append(tmp, fill)
		}
		out = append(out, List(tmp...))
	}
	return generator(out), nil
}

func filterItems(r *renderer, v Value, _ bound) (Value, error) {
	if v.kind == KindUndefined {
		return generator(nil), nil
	}
	d, ok := v.AsDict()
	if !ok {
		return Value{}, typeErr("Can only get item pairs from a mapping.")
	}
	items, err := r.dictItems(d)
	return generator(items), err
}

func filterDictsort(r *renderer, v Value, a bound) (Value, error) {
	d, ok := v.AsDict()
	if !ok {
		if v.kind == KindUndefined {
			return Value{}, v.undefinedError()
		}
		return Value{}, newErr(ErrRuntime, "AttributeError", "'%s' object has no attribute 'items'", typeName(v))
	}
	pos := 0
	switch by := str(a.get(1, String("key"))); by {
	case "key":
	case "value":
		pos = 1
	default:
		return Value{}, newErr(ErrRuntime, "FilterArgumentError", "You can only sort by either \"key\" or \"value\"")
	}
	cs := truth(a.get(0, Bool(false)))
	items, err := r.dictItems(d)
	if err != nil {
		return Value{}, err
	}
	err = sortValues(items, truth(a.get(2, Bool(false))), func(it Value) Value {
		k := it.items[pos]
		if !cs {
			k = ignoreCase(k)
		}
		return k
	})
	return List(items...), err
}

func ignoreCase(v Value) Value {
	if v.kind == KindString {
		return String(pyLower(v.s))
	}
	return v
}

// sortValues sorts items stably by key with Python's <; reverse keeps the
// order of equal items, as Python's sorted does.
func sortValues(items []Value, reverse bool, key func(Value) Value) error {
	keys := make([]Value, len(items))
	for i, it := range items {
		keys[i] = key(it)
	}
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	var err error
	sort.SliceStable(idx, func(i, j int) bool {
		a, b := keys[idx[i]], keys[idx[j]]
		if reverse {
			a, b = b, a
		}
		lt, e := less(a, b)
		if e != nil && err == nil {
			err = e
		}
		return lt
	})
	sorted := make([]Value, len(items))
	for i, k := range idx {
		sorted[i] = items[k]
	}
	copy(items, sorted)
	return err
}
