package gguf

import (
	"bytes"
	"math"
	"reflect"
	"testing"
)

// allValues has one metadata entry of every value type, arrays of every
// element type, and nested arrays.
var allValues = []testKV{
	{"t.u8", uint8(200)},
	{"t.i8", int8(-100)},
	{"t.u16", uint16(60000)},
	{"t.i16", int16(-30000)},
	{"t.u32", uint32(4000000000)},
	{"t.i32", int32(-2000000000)},
	{"t.f32", float32(1.5)},
	{"t.bool", true},
	{"t.false", false},
	{"t.str", "héllo"},
	{"t.empty", ""},
	{"t.u64", uint64(math.MaxUint64)},
	{"t.i64", int64(math.MinInt64)},
	{"t.f64", math.Pi},
	{"t.a.u8", arr{TypeUint8, []any{uint8(1), uint8(255)}}},
	{"t.a.i8", arr{TypeInt8, []any{int8(-1), int8(7)}}},
	{"t.a.u16", arr{TypeUint16, []any{uint16(1), uint16(65535)}}},
	{"t.a.i16", arr{TypeInt16, []any{int16(-2), int16(3)}}},
	{"t.a.u32", arr{TypeUint32, []any{uint32(5), uint32(6)}}},
	{"t.a.i32", arr{TypeInt32, []any{int32(-5), int32(6)}}},
	{"t.a.f32", arr{TypeFloat32, []any{float32(0.25), float32(-2)}}},
	{"t.a.bool", arr{TypeBool, []any{true, false}}},
	{"t.a.str", arr{TypeString, []any{"a", "", "ccc"}}},
	{"t.a.u64", arr{TypeUint64, []any{uint64(1 << 40), uint64(math.MaxUint64)}}},
	{"t.a.i64", arr{TypeInt64, []any{int64(-1 << 40), int64(9)}}},
	{"t.a.f64", arr{TypeFloat64, []any{1e300, -0.5}}},
	{"t.a.empty", arr{TypeUint32, []any{}}},
	{"t.a.nested", arr{TypeArray, []any{
		arr{TypeString, []any{"x", "y"}},
		arr{TypeArray, []any{arr{TypeInt8, []any{int8(-3)}}}},
		arr{TypeFloat32, []any{}},
	}}},
}

// sampleModel is a small valid file with every value type and a few tensors.
func sampleModel(version uint32) testModel {
	return testModel{
		version: version,
		kvs:     append([]testKV{{"general.architecture", "llama"}}, allValues...),
		tensors: []testTensor{
			{"a", []uint64{3}, TypeF32, f32Bytes(1, 2, 3)},
			{"b", []uint64{32, 2}, TypeQ8_0, bytes.Repeat([]byte{1}, 2*34)},
			{"c", []uint64{2, 1, 1, 1}, TypeF16, []byte{0, 0x3c, 0, 0xc0}},
		},
	}
}

func TestParseValues(t *testing.T) {
	for _, version := range []uint32{2, 3} {
		f, err := Parse(sampleModel(version).build(), "sample.gguf")
		if err != nil {
			t.Fatalf("v%d: %v", version, err)
		}
		if f.Version != version || f.Path != "sample.gguf" {
			t.Errorf("v%d: Version %d Path %q", version, f.Version, f.Path)
		}
		if len(f.KV) != len(allValues)+1 {
			t.Fatalf("v%d: %d entries, want %d", version, len(f.KV), len(allValues)+1)
		}
		for i, want := range allValues {
			kv := f.KV[i+1] // file order
			if kv.Key != want.key || kv.Value.Type != valueType(want.val) {
				t.Errorf("v%d entry %d: %s %s, want %s %s", version, i, kv.Key, kv.Value.Type, want.key, valueType(want.val))
			}
			if got, exp := kv.Value.Any(), goValue(want.val); !reflect.DeepEqual(got, exp) {
				t.Errorf("v%d %s: Any() = %#v, want %#v", version, want.key, got, exp)
			}
		}
	}
}

// goValue is what Any() should return for an encoder value.
func goValue(v any) any {
	a, ok := v.(arr)
	if !ok {
		return v
	}
	out := make([]any, len(a.items))
	for i, it := range a.items {
		out[i] = goValue(it)
	}
	return out
}

func TestGetters(t *testing.T) {
	f, err := Parse(sampleModel(3).build(), "sample.gguf")
	if err != nil {
		t.Fatal(err)
	}
	get := map[string]func(string) (any, bool){
		"String":  func(k string) (any, bool) { return f.String(k) },
		"Uint":    func(k string) (any, bool) { return f.Uint(k) },
		"Int":     func(k string) (any, bool) { return f.Int(k) },
		"Float":   func(k string) (any, bool) { return f.Float(k) },
		"Bool":    func(k string) (any, bool) { return f.Bool(k) },
		"Strings": func(k string) (any, bool) { return f.Strings(k) },
		"Ints":    func(k string) (any, bool) { return f.Ints(k) },
		"Floats":  func(k string) (any, bool) { return f.Floats(k) },
	}
	tests := []struct {
		method, key string
		want        any // nil: not ok
	}{
		{"String", "t.str", "héllo"},
		{"String", "t.u8", nil},
		{"String", "missing", nil},
		{"Uint", "t.u8", uint64(200)},
		{"Uint", "t.i16", nil},
		{"Uint", "t.u64", uint64(math.MaxUint64)},
		{"Uint", "t.f32", nil},
		{"Int", "t.i8", int64(-100)},
		{"Int", "t.i64", int64(math.MinInt64)},
		{"Int", "t.u32", int64(4000000000)},
		{"Int", "t.u64", nil},
		{"Int", "t.bool", nil},
		{"Float", "t.f32", 1.5},
		{"Float", "t.f64", math.Pi},
		{"Float", "t.i32", -2000000000.0},
		{"Float", "t.str", nil},
		{"Bool", "t.bool", true},
		{"Bool", "t.false", false},
		{"Bool", "t.u8", nil},
		{"Strings", "t.a.str", []string{"a", "", "ccc"}},
		{"Strings", "t.a.u8", nil},
		{"Strings", "t.str", nil},
		{"Ints", "t.a.i8", []int64{-1, 7}},
		{"Ints", "t.a.u16", []int64{1, 65535}},
		{"Ints", "t.a.i64", []int64{-1 << 40, 9}},
		{"Ints", "t.a.u64", nil},
		{"Ints", "t.a.f32", nil},
		{"Ints", "t.a.empty", []int64{}},
		{"Floats", "t.a.f32", []float32{0.25, -2}},
		{"Floats", "t.a.i32", []float32{-5, 6}},
		{"Floats", "t.a.f64", []float32{float32(math.Inf(1)), -0.5}},
		{"Floats", "t.a.bool", nil},
		{"Floats", "t.a.nested", nil},
	}
	for _, tc := range tests {
		got, ok := get[tc.method](tc.key)
		if ok != (tc.want != nil) || (ok && !reflect.DeepEqual(got, tc.want)) {
			t.Errorf("%s(%q) = %#v, %v; want %#v", tc.method, tc.key, got, ok, tc.want)
		}
	}
	// Strings returns a copy.
	s, _ := f.Strings("t.a.str")
	s[0] = "changed"
	if again, _ := f.Strings("t.a.str"); again[0] != "a" {
		t.Error("Strings returned the internal slice")
	}
	v, _ := f.Lookup("t.a.nested")
	if et, ok := v.ElemType(); !ok || et != TypeArray || v.Len() != 3 {
		t.Errorf("nested: ElemType %v %v Len %d", et, ok, v.Len())
	}
}

func TestTensors(t *testing.T) {
	for _, align := range []int{0, 1, 8, 64, 4096} {
		m := sampleModel(3)
		m.align = align
		f, err := Parse(m.build(), "tensors.gguf")
		if err != nil {
			t.Fatalf("align %d: %v", align, err)
		}
		want := uint64(align)
		if align == 0 {
			want = 32
		}
		if f.Alignment != want || f.DataOffset%want != 0 {
			t.Errorf("align %d: Alignment %d DataOffset %d", align, f.Alignment, f.DataOffset)
		}
		if len(f.Tensors) != len(m.tensors) {
			t.Fatalf("align %d: %d tensors", align, len(f.Tensors))
		}
		for i, tt := range m.tensors {
			ti, ok := f.Tensor(tt.name)
			if !ok || ti != &f.Tensors[i] {
				t.Fatalf("Tensor(%q) not found at index %d", tt.name, i)
			}
			if !reflect.DeepEqual(ti.Dims, tt.dims) || ti.Type != tt.typ || ti.Size != uint64(len(tt.data)) {
				t.Errorf("%s: dims %v type %s size %d", tt.name, ti.Dims, ti.Type, ti.Size)
			}
			if !bytes.Equal(f.TensorData(ti), tt.data) {
				t.Errorf("%s: TensorData differs", tt.name)
			}
		}
	}
}

func TestTensorAccessorsEdgeCases(t *testing.T) {
	f, err := Parse(sampleModel(3).build(), "")
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != "<memory>" {
		t.Errorf("Path = %q", f.Path)
	}
	if _, ok := f.Tensor("missing"); ok {
		t.Error("Tensor(missing) found")
	}
	c, _ := f.Tensor("c")
	if c.Elements() != 2 {
		t.Errorf("c has %d elements", c.Elements())
	}
	if (&TensorInfo{}).Elements() != 1 {
		t.Error("a tensor without dims should have one element")
	}
	bad := []*TensorInfo{nil, {Offset: 1 << 40, Size: 4}, {Offset: 0, Size: math.MaxUint64}}
	for _, ti := range bad {
		if f.TensorData(ti) != nil {
			t.Errorf("TensorData(%+v) is not nil", ti)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if f.TensorData(c) != nil {
		t.Error("TensorData after Close is not nil")
	}
	if s, ok := f.String("general.architecture"); !ok || s != "llama" {
		t.Error("metadata lost after Close")
	}
}

func TestNestingDepthLimit(t *testing.T) {
	nest := func(depth int) any {
		var v any = arr{TypeUint8, []any{uint8(1)}}
		for range depth - 1 {
			v = arr{TypeArray, []any{v}}
		}
		return v
	}
	ok := testModel{kvs: []testKV{{"deep", nest(maxDepth)}}}.build()
	if _, err := Parse(ok, "deep.gguf"); err != nil {
		t.Errorf("depth %d: %v", maxDepth, err)
	}
	bad := testModel{kvs: []testKV{{"deep", nest(maxDepth + 1)}}}.build()
	if _, err := Parse(bad, "deep.gguf"); err == nil {
		t.Errorf("depth %d accepted", maxDepth+1)
	}
}

func TestTypeNames(t *testing.T) {
	tests := []struct {
		typ         TensorType
		name        string
		block, size int
	}{
		{TypeF32, "F32", 1, 4}, {TypeF16, "F16", 1, 2}, {TypeBF16, "BF16", 1, 2},
		{TypeQ4_0, "Q4_0", 32, 18}, {TypeQ4_1, "Q4_1", 32, 20}, {TypeQ5_0, "Q5_0", 32, 22},
		{TypeQ5_1, "Q5_1", 32, 24}, {TypeQ8_0, "Q8_0", 32, 34}, {TypeQ8_1, "Q8_1", 32, 36},
		{TypeQ2_K, "Q2_K", 256, 84}, {TypeQ3_K, "Q3_K", 256, 110}, {TypeQ4_K, "Q4_K", 256, 144},
		{TypeQ5_K, "Q5_K", 256, 176}, {TypeQ6_K, "Q6_K", 256, 210}, {TypeQ8_K, "Q8_K", 256, 292},
		{TypeIQ4_NL, "IQ4_NL", 32, 18}, {TypeIQ4_XS, "IQ4_XS", 256, 136},
		{4, "Q4_2", 0, 0}, {36, "IQ4_NL_4_4", 0, 0}, {999, "TensorType(999)", 0, 0},
	}
	for _, tc := range tests {
		if tc.typ.String() != tc.name || tc.typ.BlockSize() != tc.block || tc.typ.TypeSize() != tc.size {
			t.Errorf("%d: %s %d %d, want %s %d %d", uint32(tc.typ), tc.typ, tc.typ.BlockSize(), tc.typ.TypeSize(), tc.name, tc.block, tc.size)
		}
	}
	if TypeArray.String() != "array" || ValueType(77).String() != "ValueType(77)" {
		t.Error("ValueType names")
	}
}
