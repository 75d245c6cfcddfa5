package jinja

import (
	"strconv"
	"strings"
)

func itoa(n int) string { return strconv.Itoa(n) }

func isDunder(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// getattr is the sandbox's getattr: the attribute (a method, a namespace
// or loop attribute) first, then the item of that name, else undefined.
func getattr(obj Value, name string) (Value, error) {
	if obj.kind == KindUndefined {
		return Value{}, obj.undefinedError()
	}
	if v, ok := attribute(obj, name); ok {
		return v, nil
	}
	if obj.kind == KindDict {
		if v, ok := obj.ref.(*Dict).Get(name); ok {
			return v, nil
		}
	}
	return undefAttr(obj, String(name)), nil
}

// attribute returns a real Python attribute of obj: a bound method, a
// namespace or loop attribute. Mutating methods and dunder names are
// unsafe in the sandbox.
func attribute(obj Value, name string) (Value, bool) {
	if isDunder(name) {
		return unsafeUndef(obj, name), true
	}
	switch obj.kind {
	case KindString:
		return boundMethod(obj, name, strMethods)
	case KindDict:
		return boundMethod(obj, name, dictMethods)
	case KindList:
		return boundMethod(obj, name, listMethods)
	case KindTuple:
		if g, ok := obj.ref.(*groupTuple); ok {
			switch name {
			case "grouper":
				return g.grouper, true
			case "list":
				return g.list, true
			}
		}
		return boundMethod(obj, name, tupleMethods)
	case KindFloat:
		if name == "is_integer" {
			return boundMethod(obj, name, floatMethods)
		}
	case KindObject:
		switch o := obj.ref.(type) {
		case *namespace:
			return o.d.Get(name)
		case *loopObj:
			return o.attr(name)
		case *cycler:
			return o.attr(name)
		}
	}
	return Value{}, false
}

// getitem is the sandbox's getitem: the item first, then for a string key
// the attribute of that name, else undefined.
func getitem(obj Value, key Value) (Value, error) {
	switch obj.kind {
	case KindUndefined:
		return Value{}, obj.undefinedError()
	case KindDict:
		if v, ok, err := obj.ref.(*Dict).getKey(key); err == nil && ok {
			return v, nil
		}
	case KindList, KindTuple:
		if v, ok := index(obj.items, key); ok {
			return v, nil
		}
	case KindString:
		if key.isIntLike() {
			rs := []rune(obj.s)
			if i, ok := pyIndex(len(rs), key.n); ok {
				return Value{kind: KindString, s: string(rs[i]), safe: obj.safe}, nil
			}
		}
	case KindIter:
		if it := obj.ref.(*iterator); it.sub {
			if v, ok := index(it.items, key); ok {
				return v, nil
			}
		}
	}
	if key.kind == KindString {
		if v, ok := attribute(obj, key.s); ok {
			return v, nil
		}
	}
	return undefAttr(obj, key), nil
}

func pyIndex(n int, i int64) (int, bool) {
	if i < 0 {
		i += int64(n)
	}
	if i < 0 || i >= int64(n) {
		return 0, false
	}
	return int(i), true
}

func index(items []Value, key Value) (Value, bool) {
	if !key.isIntLike() {
		return Value{}, false
	}
	i, ok := pyIndex(len(items), key.n)
	if !ok {
		return Value{}, false
	}
	return items[i], true
}

// sliceBounds is Python's slice.indices(n).
func sliceBounds(n int, start, stop, step Value) (lo, hi, st int, err error) {
	st = 1
	if step.kind != KindNone {
		if !step.isIntLike() {
			return 0, 0, 0, typeErr("slice indices must be integers or None or have an __index__ method")
		}
		if step.n == 0 {
			return 0, 0, 0, valueErr("slice step cannot be zero")
		}
		st = int(max(min(step.n, 1<<40), -(1 << 40)))
	}
	lower, upper := 0, n
	if st < 0 {
		lower, upper = -1, n-1
	}
	adjust := func(v Value, def int) (int, error) {
		if v.kind == KindNone {
			return def, nil
		}
		if !v.isIntLike() {
			return 0, typeErr("slice indices must be integers or None or have an __index__ method")
		}
		i := v.n
		if i < 0 {
			i += int64(n)
			if i < int64(lower) {
				return lower, nil
			}
			return int(i), nil
		}
		if i > int64(upper) {
			return upper, nil
		}
		return int(i), nil
	}
	if st < 0 {
		lo, err = adjust(start, upper)
		if err == nil {
			hi, err = adjust(stop, lower)
		}
	} else {
		lo, err = adjust(start, lower)
		if err == nil {
			hi, err = adjust(stop, upper)
		}
	}
	return lo, hi, st, err
}

func sliceIndices(n int, start, stop, step Value) ([]int, error) {
	lo, hi, st, err := sliceBounds(n, start, stop, step)
	if err != nil {
		return nil, err
	}
	count := 0
	switch {
	case st > 0 && hi > lo:
		count = (hi - lo + st - 1) / st
	case st < 0 && lo > hi:
		count = (lo - hi - st - 1) / -st
	}
	idx := make([]int, count)
	for k := range idx {
		idx[k] = lo + k*st
	}
	return idx, nil
}

// sliceValue is obj[start:stop:step]. jinja2 compiles slices to plain
// Python subscripts, so errors are raised rather than made undefined. The
// copy is charged to the memory budget before it is made; a string sliced
// with step 1 is a substring and copies nothing.
func (r *renderer) sliceValue(obj, start, stop, step Value) (Value, error) {
	var src []Value
	switch obj.kind {
	case KindUndefined:
		return Value{}, obj.undefinedError()
	case KindList, KindTuple:
		src = obj.items
	case KindString:
	case KindDict:
		return Value{}, typeErr("unhashable type: 'slice'")
	case KindIter:
		if it := obj.ref.(*iterator); it.sub {
			src = it.items
			break
		}
		fallthrough
	default:
		return Value{}, typeErr("'%s' object is not subscriptable", typeName(obj))
	}
	if obj.kind == KindString && (step.kind == KindNone || step.isIntLike() && step.n == 1) {
		if err := r.step(int64(len(obj.s) / 64)); err != nil {
			return Value{}, err
		}
		return substring(obj, start, stop)
	}
	var rs []rune
	n := len(src)
	cost := int64(n) * (valueSize + 8) // the items and their indices
	if obj.kind == KindString {
		n = runeLen(obj.s)
		cost = int64(n) * 20 // the runes, their indices, the copy and the result
	}
	if err := r.useMem(cost); err != nil {
		return Value{}, err
	}
	if obj.kind == KindString {
		rs = []rune(obj.s)
	}
	idx, err := sliceIndices(n, start, stop, step)
	if err != nil {
		return Value{}, err
	}
	if obj.kind == KindString {
		out := make([]rune, len(idx))
		for i, j := range idx {
			out[i] = rs[j]
		}
		return Value{kind: KindString, s: string(out), safe: obj.safe}, nil
	}
	out := make([]Value, len(idx))
	for i, j := range idx {
		out[i] = src[j]
	}
	if obj.kind == KindIter {
		return rangeSlice(obj.ref.(*iterator), start, stop, step, out), nil
	}
	return Value{kind: obj.kind, items: out}, nil
}

// substring is s[start:stop], found by walking the runes once.
func substring(s, start, stop Value) (Value, error) {
	lo, hi, _, err := sliceBounds(runeLen(s.s), start, stop, None())
	if err != nil || hi <= lo {
		return Value{kind: KindString, safe: s.safe}, err
	}
	from, to, k := len(s.s), len(s.s), 0
	for i := range s.s {
		if k == lo {
			from = i
		}
		if k == hi {
			to = i
			break
		}
		k++
	}
	return Value{kind: KindString, s: s.s[from:to], safe: s.safe}, nil
}

// rangeSlice is a slice of a range, itself a range.
func rangeSlice(it *iterator, start, stop, step Value, items []Value) Value {
	st := int64(1)
	if step.isIntLike() {
		st = step.n
	}
	first := it.rng[1]
	if len(items) > 0 {
		first = items[0].n
	}
	st *= it.rng[2]
	return rangeValue(first, first+int64(len(items))*st, st, items)
}
