package gguf

import (
	"fmt"
	"unsafe"
)

// Smallest encodings, used to bound counts by the bytes left in the file.
const (
	minKVSize         = 8 + 4 + 1     // empty key, type, one-byte value
	minArraySize      = 4 + 8         // element type and count of an empty array
	minTensorInfoSize = 8 + 4 + 4 + 8 // empty name, no dims, type, offset
)

// In-memory sizes charged against the metadata budget.
var (
	stringHeaderSize = uint64(unsafe.Sizeof(""))
	valueSize        = uint64(unsafe.Sizeof(Value{}) + unsafe.Sizeof(array{}))
)

// metadata reads n key/value pairs into f.KV.
func (d *decoder) metadata(f *File, n int) error {
	f.KV = make([]KV, 0, n)
	f.keys = make(map[string]int, n)
	for i := range n {
		d.what = fmt.Sprintf("metadata entry %d", i)
		key, err := d.str(maxKeyLen)
		if err != nil {
			return err
		}
		d.what = fmt.Sprintf("metadata key %.80q", key)
		if _, dup := f.keys[key]; dup {
			return d.errorf("duplicate key")
		}
		t, err := d.u32()
		if err != nil {
			return err
		}
		v, err := d.value(ValueType(t), 0)
		if err != nil {
			return err
		}
		f.keys[key] = len(f.KV)
		f.KV = append(f.KV, KV{Key: key, Value: v})
	}
	d.what = ""
	return nil
}

// value reads one value of type t found at nesting depth depth.
func (d *decoder) value(t ValueType, depth int) (Value, error) {
	switch {
	case t == TypeString:
		s, err := d.str(maxStringLen)
		return Value{Type: t, str: s}, err
	case t == TypeArray:
		a, err := d.array(depth + 1)
		return Value{Type: t, arr: a}, err
	case t.size() > 0:
		b, err := d.take(t.size())
		if err != nil {
			return Value{}, err
		}
		return Value{Type: t, num: le(b)}, nil
	}
	return Value{}, d.errorf("unknown value type %d", uint32(t))
}

// array reads an array's element type, count and elements.
func (d *decoder) array(depth int) (*array, error) {
	if depth > maxDepth {
		return nil, d.errorf("arrays nested more than %d deep", maxDepth)
	}
	et, err := d.u32()
	if err != nil {
		return nil, err
	}
	a := &array{elem: ValueType(et)}
	minSize := a.elem.size()
	switch a.elem {
	case TypeString:
		minSize = 8
	case TypeArray:
		minSize = minArraySize
	}
	if minSize == 0 {
		return nil, d.errorf("array of unknown value type %d", et)
	}
	if a.n, err = d.count("array elements ("+a.elem.String()+")", maxArrayLen, minSize); err != nil {
		return nil, err
	}
	switch a.elem {
	case TypeString:
		err = d.stringElems(a)
	case TypeArray:
		err = d.arrayElems(a, depth)
	default:
		err = d.fixedElems(a, minSize)
	}
	return a, err
}

// stringElems reads a.n strings into one shared allocation: a first pass
// checks the lengths and sums them, a second copies the bytes, a third
// slices the copy.
func (d *decoder) stringElems(a *array) error {
	start, total := d.off, 0
	for range a.n {
		b, err := d.strBytes(maxStringLen)
		if err != nil {
			return err
		}
		total += len(b)
	}
	if err := d.charge(uint64(total) + uint64(a.n)*stringHeaderSize); err != nil {
		return err
	}
	end, buf := d.off, make([]byte, 0, total)
	d.off = start
	for range a.n {
		b, _ := d.strBytes(maxStringLen)
		buf = append(buf, b...)
	}
	all, pos := string(buf), 0
	a.strs = make([]string, a.n)
	d.off = start
	for i := range a.strs {
		b, _ := d.strBytes(maxStringLen)
		a.strs[i] = all[pos : pos+len(b)]
		pos += len(b)
	}
	d.off = end
	return nil
}

func (d *decoder) arrayElems(a *array, depth int) error {
	if err := d.charge(uint64(a.n) * valueSize); err != nil {
		return err
	}
	a.vals = make([]Value, a.n)
	for i := range a.vals {
		sub, err := d.array(depth + 1)
		if err != nil {
			return err
		}
		a.vals[i] = Value{Type: TypeArray, arr: sub}
	}
	return nil
}

func (d *decoder) fixedElems(a *array, size int) error {
	b, err := d.take(a.n * size)
	if err != nil {
		return err
	}
	if err := d.charge(uint64(len(b))); err != nil {
		return err
	}
	a.raw = append([]byte(nil), b...)
	return nil
}
