package gguf

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

type hostileCase struct {
	name string
	data []byte
	want error  // sentinel
	msg  string // substring of the error
}

// filler gives a file enough bytes that count checks pass and the field
// under test is the one that fails.
var filler = make([]byte, 64)

// kvFile is a file with one metadata entry whose type tag and payload are
// written by body.
func kvFile(body func(e *enc)) []byte {
	e := new(enc).header(3, 0, 1).str("k")
	body(e)
	return e.raw(filler).b
}

// tensorFile is a file with n tensor infos written by infos, followed by
// dataLen bytes of tensor data.
func tensorFile(n uint64, infos func(e *enc), dataLen int) []byte {
	e := new(enc).header(3, n, 0)
	infos(e)
	return e.pad(defaultAlignment).raw(make([]byte, dataLen)).b
}

// info writes one tensor info.
func info(e *enc, name string, dims []uint64, typ TensorType, off uint64) {
	e.str(name).u32(uint32(len(dims)))
	for _, d := range dims {
		e.u64(d)
	}
	e.u32(uint32(typ)).u64(off)
}

// oneTensor is a file with a single tensor info and 4 KiB of data.
func oneTensor(dims []uint64, typ TensorType, off uint64) []byte {
	return tensorFile(1, func(e *enc) { info(e, "w", dims, typ, off) }, 4096)
}

func alignmentFile(v any) []byte {
	return testModel{kvs: []testKV{{"general.alignment", v}}}.build()
}

func hostileCases() []hostileCase {
	deep := any(arr{TypeUint8, nil})
	for range maxDepth {
		deep = arr{TypeArray, []any{deep}}
	}
	return []hostileCase{
		{"empty", nil, ErrFormat, "file is empty"},
		{"short", []byte("GGU"), ErrFormat, "too short"},
		{"not GGUF", []byte("hello, this is plain text"), ErrFormat, "not a GGUF file"},
		{"legacy GGJT", []byte("tjgg\x03\x00\x00\x00"), ErrUnsupported, "legacy GGJT"},
		{"version 1", new(enc).header(1, 0, 0).b, ErrUnsupported, "version 1"},
		{"version 0", new(enc).header(0, 0, 0).b, ErrUnsupported, "version 0"},
		{"version 4", new(enc).header(4, 0, 0).b, ErrUnsupported, "version 4"},
		{"big-endian", []byte("GGUF\x00\x00\x00\x03" + strings.Repeat("\x00", 16)), ErrUnsupported, "big-endian"},
		{"header truncated", []byte("GGUF\x03\x00\x00\x00\x00\x00"), ErrFormat, "file is truncated"},
		{"tensor count huge", new(enc).header(3, 1<<62, 0).b, ErrFormat, "exceed the limit"},
		{"tensor count vs file size", new(enc).header(3, 1000, 0).b, ErrFormat, "need at least"},
		{"kv count huge", new(enc).header(3, 0, math.MaxUint64).b, ErrFormat, "exceed the limit"},
		{"kv count vs file size", new(enc).header(3, 0, 100).raw(filler).b, ErrFormat, "need at least"},
		{"key length huge", new(enc).header(3, 0, 1).u64(1 << 62).raw(filler).b, ErrFormat, "string length"},
		{"key over 64 KiB", new(enc).header(3, 0, 1).u64(70000).raw(filler).b, ErrFormat, "limit of 65535"},
		{"duplicate key", new(enc).header(3, 0, 2).kv("a", uint8(1)).kv("a", uint8(2)).b, ErrFormat, "duplicate key"},
		{"string over 16 MiB", kvFile(func(e *enc) { e.u32(uint32(TypeString)).u64(17 << 20) }), ErrFormat, "exceeds the limit"},
		{"string truncated", kvFile(func(e *enc) { e.u32(uint32(TypeString)).u64(1000) }), ErrFormat, "file is truncated"},
		{"unknown value type", kvFile(func(e *enc) { e.u32(13) }), ErrFormat, "unknown value type 13"},
		{"array count huge", kvFile(func(e *enc) { e.u32(uint32(TypeArray)).u32(uint32(TypeUint8)).u64(1 << 40) }), ErrFormat, "exceed the limit"},
		{"array vs file size", kvFile(func(e *enc) { e.u32(uint32(TypeArray)).u32(uint32(TypeUint64)).u64(1 << 20) }), ErrFormat, "need at least"},
		{"string array vs file size", kvFile(func(e *enc) { e.u32(uint32(TypeArray)).u32(uint32(TypeString)).u64(1 << 24) }), ErrFormat, "need at least"},
		{"nested array vs file size", kvFile(func(e *enc) { e.u32(uint32(TypeArray)).u32(uint32(TypeArray)).u64(1 << 22) }), ErrFormat, "need at least"},
		{"array of unknown type", kvFile(func(e *enc) { e.u32(uint32(TypeArray)).u32(42).u64(1) }), ErrFormat, "unknown value type 42"},
		{"arrays nested too deep", new(enc).header(3, 0, 1).kv("deep", deep).b, ErrFormat, "nested more than 8"},
		{"alignment 0", alignmentFile(uint32(0)), ErrFormat, "general.alignment: 0 is not a power of two"},
		{"alignment 48", alignmentFile(uint32(48)), ErrFormat, "general.alignment: 48 is not a power of two"},
		{"alignment 2 MiB", alignmentFile(uint64(2 << 20)), ErrFormat, "is not a power of two between 1 and 1048576"},
		{"alignment negative", alignmentFile(int32(-32)), ErrFormat, "general.alignment: must be a non-negative integer"},
		{"alignment string", alignmentFile("32"), ErrFormat, "general.alignment: must be a non-negative integer, got string"},
		{"tensor name huge", tensorFile(1, func(e *enc) { e.u64(1 << 40) }, 64), ErrFormat, "string length"},
		{"five dims", oneTensor([]uint64{1, 1, 1, 1, 1}, TypeF32, 0), ErrFormat, "5 dimensions, at most 4"},
		{"zero dim", oneTensor([]uint64{4, 0}, TypeF32, 0), ErrFormat, "dimension 1 is 0"},
		{"dim over int64", oneTensor([]uint64{1 << 63}, TypeF32, 0), ErrFormat, "dimension 0 is"},
		{"element count overflow", oneTensor([]uint64{1 << 32, 1 << 32}, TypeF32, 0), ErrFormat, "element count overflows"},
		{"byte size overflow", oneTensor([]uint64{1 << 62}, TypeF32, 0), ErrFormat, "byte size overflows"},
		{"row not whole blocks", oneTensor([]uint64{16, 2}, TypeQ4_0, 0), ErrFormat, "row length 16 is not a multiple of the Q4_0 block size 32"},
		{"unknown tensor type", oneTensor([]uint64{4}, 99, 0), ErrUnsupported, "unknown tensor type 99"},
		{"removed tensor type", oneTensor([]uint64{32}, 4, 0), ErrUnsupported, "Q4_2"},
		{"unaligned offset", oneTensor([]uint64{4}, TypeF32, 4), ErrFormat, "not a multiple of the alignment 32"},
		{"offset outside file", oneTensor([]uint64{4}, TypeF32, 1<<20), ErrFormat, "lies outside"},
		{"offset wraps around", oneTensor([]uint64{4}, TypeF32, math.MaxUint64-31), ErrFormat, "lies outside"},
		{"data past end", oneTensor([]uint64{4096}, TypeF32, 0), ErrFormat, "lies outside"},
		{"overlap", tensorFile(2, func(e *enc) {
			info(e, "a", []uint64{64}, TypeF32, 0)
			info(e, "b", []uint64{8}, TypeF32, 224)
		}, 512), ErrFormat, `data at offset 224 overlaps tensor "a"`},
		{"duplicate tensor name", tensorFile(2, func(e *enc) {
			info(e, "a", []uint64{8}, TypeF32, 0)
			info(e, "a", []uint64{8}, TypeF32, 32)
		}, 64), ErrFormat, "duplicate tensor name"},
	}
}

func TestHostile(t *testing.T) {
	for _, tc := range hostileCases() {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			f, err := Parse(tc.data, "hostile.gguf")
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Fatalf("accepted: %d KV, %d tensors", len(f.KV), len(f.Tensors))
			}
			if !errors.Is(err, tc.want) {
				t.Errorf("error %q does not wrap %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), "hostile.gguf") || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q: want the file name and %q", err, tc.msg)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
				t.Errorf("allocated %d bytes for a %d-byte file", n, len(tc.data))
			}
		})
	}
}

// TestTruncated parses every strict prefix of valid files: each must fail
// with ErrFormat, and the whole file must parse.
func TestTruncated(t *testing.T) {
	for _, version := range []uint32{2, 3} {
		data := sampleModel(version).build()
		if _, err := Parse(data, "whole.gguf"); err != nil {
			t.Fatalf("v%d whole file: %v", version, err)
		}
		for n := range len(data) {
			if _, err := Parse(data[:n], "cut.gguf"); !errors.Is(err, ErrFormat) {
				t.Fatalf("v%d prefix of %d/%d bytes: err = %v", version, n, len(data), err)
			}
		}
	}
}

// TestTruncatedFixture cuts a real file at a spread of offsets: inside the
// header and metadata densely, then across the tensor data.
func TestTruncatedFixture(t *testing.T) {
	data, err := os.ReadFile(fixture.Path(t, "gguf", "llama-tiny-Q4_0.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	var cuts []int
	for n := 0; n < 4096; n += 7 {
		cuts = append(cuts, n)
	}
	for k := range 64 {
		cuts = append(cuts, len(data)*k/64+k)
	}
	cuts = append(cuts, len(data)-1)
	for _, n := range cuts {
		if _, err := Parse(data[:n], "cut.gguf"); !errors.Is(err, ErrFormat) {
			t.Fatalf("prefix of %d/%d bytes: err = %v", n, len(data), err)
		}
	}
	if _, err := Parse(append(data[:len(data):len(data)], 1, 2, 3), "longer.gguf"); err != nil {
		t.Errorf("trailing bytes after the data: %v", err)
	}
}

// TestLongNamesInErrors checks that errors quote at most a short piece of a
// long tensor name or metadata key from the file.
func TestLongNamesInErrors(t *testing.T) {
	long := strings.Repeat("n", 1<<20)
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"tensor", tensorFile(1, func(e *enc) { info(e, long, []uint64{0}, TypeF32, 0) }, 64)},
		{"overlapping tensors", tensorFile(2, func(e *enc) {
			info(e, long+"a", []uint64{64}, TypeF32, 0)
			info(e, long+"b", []uint64{8}, TypeF32, 224)
		}, 512)},
		{"metadata key", new(enc).header(3, 0, 1).str(strings.Repeat("k", maxKeyLen)).u32(99).b},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.data, "long.gguf")
			if err == nil || len(err.Error()) > 1000 || !strings.Contains(err.Error(), "long.gguf") {
				t.Fatalf("got an error of %d bytes: %.300v", len(fmt.Sprint(err)), err)
			}
		})
	}
}
