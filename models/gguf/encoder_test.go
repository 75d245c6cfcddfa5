package gguf

import (
	"encoding/binary"
	"fmt"
	"math"
)

// enc is a test-only GGUF writer: it appends little-endian fields, so tests
// can build valid files and corrupt any field of them.
type enc struct{ b []byte }

func (e *enc) u8(v uint8) *enc   { e.b = append(e.b, v); return e }
func (e *enc) u16(v uint16) *enc { e.b = binary.LittleEndian.AppendUint16(e.b, v); return e }
func (e *enc) u32(v uint32) *enc { e.b = binary.LittleEndian.AppendUint32(e.b, v); return e }
func (e *enc) u64(v uint64) *enc { e.b = binary.LittleEndian.AppendUint64(e.b, v); return e }
func (e *enc) raw(p []byte) *enc { e.b = append(e.b, p...); return e }
func (e *enc) str(s string) *enc { return e.u64(uint64(len(s))).raw([]byte(s)) }

// header writes the magic, version and counts.
func (e *enc) header(version uint32, tensors, kvs uint64) *enc {
	return e.raw([]byte(magic)).u32(version).u64(tensors).u64(kvs)
}

// kv writes one metadata entry holding the Go value v (see valueType).
func (e *enc) kv(key string, v any) *enc {
	e.str(key).u32(uint32(valueType(v)))
	return e.payload(v)
}

// arr is an array value for the encoder.
type arr struct {
	elem  ValueType
	items []any
}

// valueType maps a Go value to its GGUF type.
func valueType(v any) ValueType {
	switch v.(type) {
	case uint8:
		return TypeUint8
	case int8:
		return TypeInt8
	case uint16:
		return TypeUint16
	case int16:
		return TypeInt16
	case uint32:
		return TypeUint32
	case int32:
		return TypeInt32
	case float32:
		return TypeFloat32
	case bool:
		return TypeBool
	case string:
		return TypeString
	case arr:
		return TypeArray
	case uint64:
		return TypeUint64
	case int64:
		return TypeInt64
	case float64:
		return TypeFloat64
	}
	panic(fmt.Sprintf("test encoder: no GGUF type for %T", v))
}

// payload writes v without its type tag.
func (e *enc) payload(v any) *enc {
	switch x := v.(type) {
	case uint8:
		return e.u8(x)
	case int8:
		return e.u8(uint8(x))
	case uint16:
		return e.u16(x)
	case int16:
		return e.u16(uint16(x))
	case uint32:
		return e.u32(x)
	case int32:
		return e.u32(uint32(x))
	case float32:
		return e.u32(math.Float32bits(x))
	case bool:
		if x {
			return e.u8(1)
		}
		return e.u8(0)
	case string:
		return e.str(x)
	case arr:
		e.u32(uint32(x.elem)).u64(uint64(len(x.items)))
		for _, it := range x.items {
			e.payload(it)
		}
		return e
	case uint64:
		return e.u64(x)
	case int64:
		return e.u64(uint64(x))
	case float64:
		return e.u64(math.Float64bits(x))
	}
	panic(fmt.Sprintf("test encoder: cannot encode %T", v))
}

// pad appends zero bytes up to a multiple of align.
func (e *enc) pad(align int) *enc {
	for len(e.b)%align != 0 {
		e.b = append(e.b, 0)
	}
	return e
}

// testKV is a metadata entry of a testModel.
type testKV struct {
	key string
	val any
}

// testTensor is a tensor of a testModel; data must have the right size.
type testTensor struct {
	name string
	dims []uint64
	typ  TensorType
	data []byte
}

// testModel describes a valid GGUF file for build.
type testModel struct {
	version uint32 // 3 when 0
	align   int    // written as general.alignment when non-zero
	kvs     []testKV
	tensors []testTensor
}

// build encodes m. Tensor data is packed in order at aligned offsets, with
// no padding after the last tensor (so every strict prefix is invalid).
func (m testModel) build() []byte {
	version, align := m.version, m.align
	if version == 0 {
		version = 3
	}
	kvs := m.kvs
	if align != 0 {
		kvs = append([]testKV{{"general.alignment", uint32(align)}}, kvs...)
	} else {
		align = defaultAlignment
	}
	e := new(enc).header(version, uint64(len(m.tensors)), uint64(len(kvs)))
	for _, kv := range kvs {
		e.kv(kv.key, kv.val)
	}
	off := 0
	for _, t := range m.tensors {
		e.str(t.name).u32(uint32(len(t.dims)))
		for _, d := range t.dims {
			e.u64(d)
		}
		e.u32(uint32(t.typ)).u64(uint64(off))
		off = int(alignUp(uint64(off+len(t.data)), uint64(align)))
	}
	for _, t := range m.tensors {
		e.pad(align).raw(t.data)
	}
	return e.b
}

// f32Bytes encodes float32 values little-endian.
func f32Bytes(xs ...float32) []byte {
	e := new(enc)
	for _, x := range xs {
		e.u32(math.Float32bits(x))
	}
	return e.b
}
