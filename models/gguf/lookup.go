package gguf

import (
	"math"
	"slices"
)

// Lookup returns the value stored under key.
func (f *File) Lookup(key string) (Value, bool) {
	i, ok := f.keys[key]
	if !ok {
		return Value{}, false
	}
	return f.KV[i].Value, true
}

// String returns a string value.
func (f *File) String(key string) (string, bool) {
	v, ok := f.Lookup(key)
	if !ok || v.Type != TypeString {
		return "", false
	}
	return v.str, true
}

// Uint returns a value of any integer type that is not negative.
func (f *File) Uint(key string) (uint64, bool) {
	v, ok := f.Lookup(key)
	if !ok {
		return 0, false
	}
	return v.uint()
}

// Int returns a value of any integer type that fits in an int64.
func (f *File) Int(key string) (int64, bool) {
	v, ok := f.Lookup(key)
	if !ok {
		return 0, false
	}
	return v.int()
}

// Float returns a value of any numeric type as float64.
func (f *File) Float(key string) (float64, bool) {
	v, ok := f.Lookup(key)
	if !ok {
		return 0, false
	}
	return v.float()
}

// Bool returns a bool value.
func (f *File) Bool(key string) (bool, bool) {
	v, ok := f.Lookup(key)
	if !ok || v.Type != TypeBool {
		return false, false
	}
	return v.num != 0, true
}

// Strings returns a copy of an array of strings.
func (f *File) Strings(key string) ([]string, bool) {
	a, ok := f.array(key)
	if !ok || a.elem != TypeString {
		return nil, false
	}
	return slices.Clone(a.strs), true
}

// Ints returns an array of any integer type as int64s; false if an element
// does not fit.
func (f *File) Ints(key string) ([]int64, bool) {
	a, ok := f.array(key)
	if !ok || !a.elem.isInteger() {
		return nil, false
	}
	out := make([]int64, a.n)
	for i := range out {
		if out[i], ok = a.at(i).int(); !ok {
			return nil, false
		}
	}
	return out, true
}

// Floats returns an array of any numeric type as float32s.
func (f *File) Floats(key string) ([]float32, bool) {
	a, ok := f.array(key)
	if !ok || a.elem.size() == 0 || a.elem == TypeBool {
		return nil, false
	}
	out := make([]float32, a.n)
	for i := range out {
		x, _ := a.at(i).float()
		out[i] = float32(x)
	}
	return out, true
}

func (f *File) array(key string) (*array, bool) {
	v, ok := f.Lookup(key)
	if !ok || v.Type != TypeArray || v.arr == nil {
		return nil, false
	}
	return v.arr, true
}

// Tensor returns the description of the named tensor.
func (f *File) Tensor(name string) (*TensorInfo, bool) {
	i, ok := f.names[name]
	if !ok {
		return nil, false
	}
	return &f.Tensors[i], true
}

// TensorData returns the tensor's bytes, a slice of the file's mapping (not
// a copy; it must not be written to). It returns nil after Close or for a
// TensorInfo whose range is not inside the data section.
func (f *File) TensorData(t *TensorInfo) []byte {
	if t == nil || f.data == nil || f.DataOffset > uint64(len(f.data)) {
		return nil
	}
	avail := uint64(len(f.data)) - f.DataOffset
	if t.Offset > avail || t.Size > avail-t.Offset || t.Size > math.MaxInt {
		return nil
	}
	start := f.DataOffset + t.Offset
	end := start + t.Size
	return f.data[start:end:end]
}
