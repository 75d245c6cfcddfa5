package jinja

import "strconv"

// iterator models Python iterables that are not containers: generators
// and iterators (single pass, no len), dict views and ranges (sized and
// re-iterable). Items are computed eagerly; pos records how far a single
// pass iterator has been consumed.
type iterator struct {
	typ   string // Python type name: generator, dict_keys, range, ...
	items []Value
	pos   int
	sized bool // len() works and iteration does not consume
	sub   bool // subscriptable (range)
	rng   [3]int64
}

func generator(items []Value) Value {
	return Value{kind: KindIter, ref: &iterator{typ: "generator", items: items}}
}

func dictView(typ string, items []Value) Value {
	return Value{kind: KindIter, ref: &iterator{typ: typ, items: items, sized: true}}
}

func rangeValue(start, stop, step int64, items []Value) Value {
	return Value{kind: KindIter, ref: &iterator{typ: "range", items: items, sized: true, sub: true,
		rng: [3]int64{start, stop, step}}}
}

func (it *iterator) repr() string {
	switch {
	case it.typ == "range":
		s := "range(" + strconv.FormatInt(it.rng[0], 10) + ", " + strconv.FormatInt(it.rng[1], 10)
		if it.rng[2] != 1 {
			s += ", " + strconv.FormatInt(it.rng[2], 10)
		}
		return s + ")"
	case it.sized:
		return it.typ + "(" + seqRepr(it.items, "[", "]") + ")"
	}
	return "<" + it.typ + " object at 0x7f3a5c1e2d40>"
}

// take consumes the remaining items.
func (it *iterator) take() []Value {
	if it.sized {
		return it.items
	}
	rest := it.items[it.pos:]
	it.pos = len(it.items)
	return rest
}

// iterate returns the items Python's iter(v) would yield, consuming single
// pass iterators. The items are charged to the memory budget (the
// characters of a string before they are built), since callers copy them
// into new lists.
func (r *renderer) iterate(v Value) ([]Value, error) {
	switch v.kind {
	case KindUndefined:
		return nil, nil
	case KindString:
		if err := r.useItems(runeLen(v.s)); err != nil {
			return nil, err
		}
		return stringChars(v), nil
	case KindList, KindTuple:
		return v.items, r.useItems(len(v.items))
	case KindDict:
		return v.ref.(*Dict).keys, r.useItems(v.ref.(*Dict).Len())
	case KindIter:
		items := v.ref.(*iterator).take()
		return items, r.useItems(len(items))
	}
	return nil, typeErr("'%s' object is not iterable", typeName(v))
}

// stringChars splits a string into one-character strings.
func stringChars(v Value) []Value {
	out := make([]Value, 0, len(v.s))
	for _, r := range v.s {
		out = append(out, Value{kind: KindString, s: string(r), safe: v.safe})
	}
	return out
}

// length is Python's len(v).
func length(v Value) (int, error) {
	switch v.kind {
	case KindUndefined:
		return 0, nil
	case KindString:
		return runeLen(v.s), nil
	case KindList, KindTuple:
		return len(v.items), nil
	case KindDict:
		return v.ref.(*Dict).Len(), nil
	case KindIter:
		if it := v.ref.(*iterator); it.sized {
			return len(it.items), nil
		}
	case KindObject:
		if l, ok := v.ref.(*loopObj); ok {
			return len(l.items), nil
		}
	}
	return 0, typeErr("object of type '%s' has no len()", typeName(v))
}
