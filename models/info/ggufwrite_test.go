package info

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// meta is GGUF metadata for a test file: key, value, key, value...
// Values are uint32, float32 or string.
type meta []any

// shape is an F32 tensor of a test file; its data is zeros.
type shape struct {
	name string
	dims []uint64
}

// writeGGUF writes a small version 3 GGUF file into dir and returns its path.
func writeGGUF(t *testing.T, dir, name string, kv meta, tensors ...shape) string {
	t.Helper()
	le := binary.LittleEndian
	putStr := func(b []byte, s string) []byte { return append(le.AppendUint64(b, uint64(len(s))), s...) }
	b := le.AppendUint32([]byte("GGUF"), 3)
	b = le.AppendUint64(b, uint64(len(tensors)))
	b = le.AppendUint64(b, uint64(len(kv)/2))
	for i := 0; i < len(kv); i += 2 {
		b = putStr(b, kv[i].(string))
		switch v := kv[i+1].(type) {
		case uint32:
			b = le.AppendUint32(le.AppendUint32(b, 4), v)
		case float32:
			b = le.AppendUint32(le.AppendUint32(b, 6), math.Float32bits(v))
		case string:
			b = putStr(le.AppendUint32(b, 8), v)
		default:
			t.Fatalf("writeGGUF: %s: value of type %T", kv[i], v)
		}
	}
	var offset uint64
	for _, x := range tensors {
		b = le.AppendUint32(putStr(b, x.name), uint32(len(x.dims)))
		n := uint64(1)
		for _, d := range x.dims {
			b = le.AppendUint64(b, d)
			n *= d
		}
		b = le.AppendUint64(le.AppendUint32(b, 0), offset) // F32
		offset += (n*4 + 31) / 32 * 32
	}
	b = append(b, make([]byte, (32-len(b)%32)%32+int(offset))...)
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
