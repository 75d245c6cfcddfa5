package jinja

import (
	"fmt"
	"math"
	"strconv"
)

// Dict is an insertion-ordered dictionary, as a Python dict. Keys are any
// hashable value; Set and Get take string keys, the common case.
type Dict struct {
	keys  []Value
	vals  []Value
	index map[hashKey]int // built once the dict grows past a few entries
}

// hashKey identifies a key the way Python's hash and == do: 1, 1.0 and
// True are the same key.
type hashKey struct {
	k byte
	s string
}

const dictIndexMin = 8

// NewDict returns an empty dict.
func NewDict() *Dict { return &Dict{} }

// Len returns the number of entries.
func (d *Dict) Len() int { return len(d.keys) }

// Set stores v under the string key k, keeping the position of an existing
// key as Python does.
func (d *Dict) Set(k string, v Value) { d.set(String(k), hashKey{'s', k}, v) }

// Get returns the value stored under the string key k.
func (d *Dict) Get(k string) (Value, bool) {
	i := d.find(hashKey{'s', k})
	if i < 0 {
		return Value{}, false
	}
	return d.vals[i], true
}

// Value wraps d as a template value.
func (d *Dict) Value() Value { return Value{kind: KindDict, ref: d} }

// Keys returns the keys in order (not copied).
func (d *Dict) Keys() []Value { return d.keys }

// Values returns the values in order (not copied).
func (d *Dict) Values() []Value { return d.vals }

// setKey stores v under any hashable key.
func (d *Dict) setKey(k, v Value) error {
	h, err := hashOf(k)
	if err != nil {
		return err
	}
	d.set(k, h, v)
	return nil
}

// getKey looks up any key; an unhashable key is an error.
func (d *Dict) getKey(k Value) (Value, bool, error) {
	h, err := hashOf(k)
	if err != nil {
		return Value{}, false, err
	}
	i := d.find(h)
	if i < 0 {
		return Value{}, false, nil
	}
	return d.vals[i], true, nil
}

func (d *Dict) set(k Value, h hashKey, v Value) {
	if i := d.find(h); i >= 0 {
		d.vals[i] = v
		return
	}
	d.keys = append(d.keys, k)
	d.vals = append(d.vals, v)
	if d.index != nil {
		d.index[h] = len(d.keys) - 1
	} else if len(d.keys) > dictIndexMin {
		d.index = make(map[hashKey]int, len(d.keys))
		for i, key := range d.keys {
			hk, _ := hashOf(key)
			d.index[hk] = i
		}
	}
}

func (d *Dict) find(h hashKey) int {
	if d.index != nil {
		if i, ok := d.index[h]; ok {
			return i
		}
		return -1
	}
	for i, k := range d.keys {
		if hk, _ := hashOf(k); hk == h {
			return i
		}
	}
	return -1
}

// copy returns a shallow copy.
func (d *Dict) copy() *Dict {
	c := &Dict{keys: append([]Value(nil), d.keys...), vals: append([]Value(nil), d.vals...)}
	if d.index != nil {
		c.index = make(map[hashKey]int, len(d.index))
		for k, i := range d.index {
			c.index[k] = i
		}
	}
	return c
}

// hashOf returns the hash key of v, or Python's TypeError for unhashable
// values.
func hashOf(v Value) (hashKey, error) {
	switch v.kind {
	case KindString:
		return hashKey{'s', v.s}, nil
	case KindTuple:
		b, err := appendTupleHash(nil, v, 0)
		if err != nil {
			return hashKey{}, err
		}
		return hashKey{'t', string(b)}, nil
	}
	return scalarHash(v)
}

func scalarHash(v Value) (hashKey, error) {
	switch v.kind {
	case KindBool, KindInt:
		return hashKey{'i', strconv.FormatInt(v.n, 10)}, nil
	case KindFloat:
		if v.f == math.Trunc(v.f) && math.Abs(v.f) < 1<<63 {
			return hashKey{'i', strconv.FormatInt(int64(v.f), 10)}, nil
		}
		return hashKey{'f', strconv.FormatUint(math.Float64bits(v.f), 16)}, nil
	case KindNone:
		return hashKey{'n', ""}, nil
	case KindUndefined:
		return hashKey{'u', ""}, nil
	case KindString:
		return hashKey{'s', v.s}, nil
	case KindObject, KindIter:
		return hashKey{'o', fmt.Sprintf("%p", v.ref)}, nil
	}
	return hashKey{}, typeErr("unhashable type: '%s'", typeName(v))
}

// appendTupleHash encodes a tuple's elements, refusing nesting or sizes
// beyond the repr limits.
func appendTupleHash(b []byte, v Value, depth int) ([]byte, error) {
	if depth > maxReprDepth || len(b) > reprCap {
		return nil, newErr(ErrLimit, "RecursionError", "tuple key too deep or too large to hash")
	}
	b = append(b, '(')
	for _, it := range v.items {
		var err error
		if it.kind == KindTuple {
			if b, err = appendTupleHash(b, it, depth+1); err != nil {
				return nil, err
			}
			continue
		}
		h, err := scalarHash(it)
		if err != nil {
			return nil, err
		}
		b = append(b, h.k)
		b = strconv.AppendInt(b, int64(len(h.s)), 10)
		b = append(b, ':')
		b = append(b, h.s...)
	}
	return append(b, ')'), nil
}
