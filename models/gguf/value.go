package gguf

import (
	"fmt"
	"math"
)

// ValueType is the type of a metadata value, numbered as in the GGUF spec.
type ValueType uint32

// Metadata value types.
const (
	TypeUint8   ValueType = 0
	TypeInt8    ValueType = 1
	TypeUint16  ValueType = 2
	TypeInt16   ValueType = 3
	TypeUint32  ValueType = 4
	TypeInt32   ValueType = 5
	TypeFloat32 ValueType = 6
	TypeBool    ValueType = 7
	TypeString  ValueType = 8
	TypeArray   ValueType = 9
	TypeUint64  ValueType = 10
	TypeInt64   ValueType = 11
	TypeFloat64 ValueType = 12
)

var valueTypeNames = [...]string{
	"uint8", "int8", "uint16", "int16", "uint32", "int32", "float32",
	"bool", "string", "array", "uint64", "int64", "float64",
}

// String returns the GGUF name of the type ("uint32", "string", ...).
func (t ValueType) String() string {
	if int(t) < len(valueTypeNames) {
		return valueTypeNames[t]
	}
	return fmt.Sprintf("ValueType(%d)", uint32(t))
}

// size is the encoded size of a fixed-size scalar type, 0 otherwise.
func (t ValueType) size() int {
	switch t {
	case TypeUint8, TypeInt8, TypeBool:
		return 1
	case TypeUint16, TypeInt16:
		return 2
	case TypeUint32, TypeInt32, TypeFloat32:
		return 4
	case TypeUint64, TypeInt64, TypeFloat64:
		return 8
	}
	return 0
}

func (t ValueType) isSigned() bool {
	return t == TypeInt8 || t == TypeInt16 || t == TypeInt32 || t == TypeInt64
}

func (t ValueType) isInteger() bool {
	return t.isSigned() || t == TypeUint8 || t == TypeUint16 || t == TypeUint32 || t == TypeUint64
}

// Value is a metadata value. Scalars, strings and arrays are copied out of
// the file, so a Value stays valid after File.Close.
type Value struct {
	Type ValueType
	num  uint64 // scalar: the little-endian bits, zero-extended
	str  string
	arr  *array
}

// array holds the elements of an array value.
type array struct {
	elem ValueType
	n    int
	raw  []byte   // fixed-size elements, as in the file
	strs []string // string elements
	vals []Value  // array elements
}

// at returns element i of a fixed-size-element array.
func (a *array) at(i int) Value {
	sz := a.elem.size()
	return Value{Type: a.elem, num: le(a.raw[i*sz : (i+1)*sz])}
}

// Any returns the value as a Go value: uint8 … uint64, int8 … int64,
// float32, float64, bool, string, or []any for an array.
func (v Value) Any() any {
	switch v.Type {
	case TypeUint8:
		return uint8(v.num)
	case TypeInt8:
		return int8(v.num)
	case TypeUint16:
		return uint16(v.num)
	case TypeInt16:
		return int16(v.num)
	case TypeUint32:
		return uint32(v.num)
	case TypeInt32:
		return int32(v.num)
	case TypeUint64:
		return v.num
	case TypeInt64:
		return int64(v.num)
	case TypeFloat32:
		return math.Float32frombits(uint32(v.num))
	case TypeFloat64:
		return math.Float64frombits(v.num)
	case TypeBool:
		return v.num != 0
	case TypeString:
		return v.str
	case TypeArray:
		return v.arr.any()
	}
	return nil
}

func (a *array) any() []any {
	if a == nil {
		return nil
	}
	out := make([]any, a.n)
	for i := range out {
		switch a.elem {
		case TypeString:
			out[i] = a.strs[i]
		case TypeArray:
			out[i] = a.vals[i].Any()
		default:
			out[i] = a.at(i).Any()
		}
	}
	return out
}

// Len returns the number of elements of an array value, 0 for other types.
func (v Value) Len() int {
	if v.Type != TypeArray || v.arr == nil {
		return 0
	}
	return v.arr.n
}

// ElemType returns the element type of an array value.
func (v Value) ElemType() (ValueType, bool) {
	if v.Type != TypeArray || v.arr == nil {
		return 0, false
	}
	return v.arr.elem, true
}

// int returns an integer value as int64.
func (v Value) int() (int64, bool) {
	switch {
	case v.Type.isSigned():
		sz := v.Type.size() * 8
		return int64(v.num<<(64-sz)) >> (64 - sz), true
	case v.Type.isInteger() && v.num <= math.MaxInt64:
		return int64(v.num), true
	}
	return 0, false
}

// uint returns a non-negative integer value as uint64.
func (v Value) uint() (uint64, bool) {
	if v.Type.isSigned() {
		i, _ := v.int()
		return uint64(i), i >= 0
	}
	return v.num, v.Type.isInteger()
}

// float returns a numeric value as float64.
func (v Value) float() (float64, bool) {
	switch v.Type {
	case TypeFloat32:
		return float64(math.Float32frombits(uint32(v.num))), true
	case TypeFloat64:
		return math.Float64frombits(v.num), true
	}
	if v.Type.isSigned() {
		i, _ := v.int()
		return float64(i), true
	}
	return float64(v.num), v.Type.isInteger()
}
