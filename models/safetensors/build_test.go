package safetensors

import (
	"encoding/binary"
	"encoding/json"
	"testing"
)

// spec describes one tensor to write into a test file.
type spec struct {
	name  string
	dtype string
	shape []int
}

// build returns a valid safetensors file holding the tensors one after the
// other, each byte of the data section set to its offset modulo 251.
func build(t testing.TB, meta map[string]string, specs ...spec) []byte {
	t.Helper()
	header := map[string]any{}
	if meta != nil {
		header[metadataKey] = meta
	}
	off := 0
	for _, s := range specs {
		dt, err := parseDType(s.dtype)
		if err != nil {
			t.Fatalf("spec %s: %v", s.name, err)
		}
		shape := append([]int{}, s.shape...) // never null in the JSON
		n := dt.Size()
		for _, d := range shape {
			n *= d
		}
		header[s.name] = map[string]any{"dtype": s.dtype, "shape": shape, "data_offsets": []int{off, off + n}}
		off += n
	}
	text, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	body := make([]byte, off)
	for i := range body {
		body[i] = byte(i % 251)
	}
	return raw(string(text), body)
}

// raw returns a file made of a literal header and data section.
func raw(header string, body []byte) []byte {
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	out = append(out, header...)
	return append(out, body...)
}
