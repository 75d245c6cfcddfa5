package jinja

import "strings"

// equal is Python's ==.
func equal(a, b Value) bool { return equalDepth(a, b, 0) }

func equalDepth(a, b Value, depth int) bool {
	if depth > maxReprDepth {
		return false
	}
	if a.isNumber() && b.isNumber() {
		if a.isIntLike() && b.isIntLike() {
			return a.n == b.n
		}
		return a.asFloat() == b.asFloat()
	}
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case KindUndefined, KindNone:
		return true
	case KindString:
		return a.s == b.s
	case KindList, KindTuple:
		if len(a.items) != len(b.items) {
			return false
		}
		if len(a.items) > 0 && &a.items[0] == &b.items[0] {
			return true // the same list, as Python's identity check
		}
		for i := range a.items {
			if !equalDepth(a.items[i], b.items[i], depth+1) {
				return false
			}
		}
		return true
	case KindDict:
		da, db := a.ref.(*Dict), b.ref.(*Dict)
		if da == db {
			return true
		}
		if da.Len() != db.Len() {
			return false
		}
		for i, k := range da.keys {
			v, ok, _ := db.getKey(k)
			if !ok || !equalDepth(da.vals[i], v, depth+1) {
				return false
			}
		}
		return true
	case KindIter:
		ia, ib := a.ref.(*iterator), b.ref.(*iterator)
		if ia.typ == "range" && ib.typ == "range" {
			return equalDepth(List(ia.items...), List(ib.items...), depth+1)
		}
	}
	return a.ref == b.ref
}

// less is Python's a < b.
func less(a, b Value) (bool, error) { return order("<", a, b, 0) }

// order compares a and b with <, <=, > or >=.
func order(op string, a, b Value, depth int) (bool, error) {
	if err := undefinedOperand(a, b); err != nil {
		return false, err
	}
	var c int
	switch {
	case a.isNumber() && b.isNumber():
		if a.isIntLike() && b.isIntLike() {
			c = cmp3(a.n < b.n, a.n > b.n)
		} else {
			x, y := a.asFloat(), b.asFloat()
			if x != x || y != y {
				return false, nil
			}
			c = cmp3(x < y, x > y)
		}
	case a.kind == KindString && b.kind == KindString:
		c = strings.Compare(a.s, b.s)
	case (a.kind == KindList || a.kind == KindTuple) && a.kind == b.kind:
		if depth > maxReprDepth {
			return false, newErr(ErrRuntime, "RecursionError", "maximum recursion depth exceeded in comparison")
		}
		for i := 0; i < len(a.items) && i < len(b.items); i++ {
			if !equalDepth(a.items[i], b.items[i], depth+1) {
				return order(op, a.items[i], b.items[i], depth+1)
			}
		}
		c = cmp3(len(a.items) < len(b.items), len(a.items) > len(b.items))
	default:
		return false, typeErr("'%s' not supported between instances of '%s' and '%s'", op, typeName(a), typeName(b))
	}
	switch op {
	case "<":
		return c < 0, nil
	case "<=":
		return c <= 0, nil
	case ">":
		return c > 0, nil
	}
	return c >= 0, nil
}

func cmp3(lt, gt bool) int {
	switch {
	case lt:
		return -1
	case gt:
		return 1
	}
	return 0
}

// compare applies a comparison operator of a compare chain.
func compare(op string, a, b Value) (bool, error) {
	switch op {
	case "==":
		return equal(a, b), nil
	case "!=":
		return !equal(a, b), nil
	case "in":
		return contains(b, a)
	case "notin":
		ok, err := contains(b, a)
		return !ok, err
	}
	return order(op, a, b, 0)
}

// contains is Python's item in container.
func contains(container, item Value) (bool, error) {
	switch container.kind {
	case KindUndefined:
		return false, nil
	case KindString:
		if item.kind != KindString {
			if item.kind == KindUndefined {
				return false, item.undefinedError()
			}
			return false, typeErr("'in <string>' requires string as left operand, not %s", typeName(item))
		}
		return strings.Contains(container.s, item.s), nil
	case KindList, KindTuple:
		return containsItem(container.items, item), nil
	case KindDict:
		_, ok, err := container.ref.(*Dict).getKey(item)
		return ok, err
	case KindIter:
		it := container.ref.(*iterator)
		if it.sized {
			return containsItem(it.items, item), nil
		}
		for it.pos < len(it.items) {
			it.pos++
			if equal(it.items[it.pos-1], item) {
				return true, nil
			}
		}
		return false, nil
	}
	return false, typeErr("argument of type '%s' is not iterable", typeName(container))
}

func containsItem(items []Value, item Value) bool {
	for _, it := range items {
		if equal(it, item) {
			return true
		}
	}
	return false
}
