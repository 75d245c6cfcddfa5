package model

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/gguf"
	"github.com/mlxrun/mlx/models/safetensors"
)

// testTensor is one tensor of a file built for a test.
type testTensor struct {
	name  string
	dims  []uint64 // GGUF order: row length first
	typ   uint32   // ggml type
	bytes int
}

// buildGGUF writes a GGUF v3 file with no metadata and zeroed tensor data.
func buildGGUF(t *testing.T, tensors []testTensor) *gguf.File {
	t.Helper()
	var b bytes.Buffer
	w := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("GGUF")
	w(uint32(3))
	w(uint64(len(tensors)))
	w(uint64(0))
	off := uint64(0)
	for _, tt := range tensors {
		w(uint64(len(tt.name)))
		b.WriteString(tt.name)
		w(uint32(len(tt.dims)))
		for _, d := range tt.dims {
			w(d)
		}
		w(tt.typ)
		w(off)
		off += uint64(tt.bytes+31) &^ 31
	}
	for b.Len()%32 != 0 {
		b.WriteByte(0)
	}
	b.Write(make([]byte, off))
	f, err := gguf.Parse(b.Bytes(), "test.gguf")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// buildSafetensors writes a safetensors file of zeroed tensors.
func buildSafetensors(t *testing.T, header string, size int) *safetensors.File {
	t.Helper()
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, uint64(len(header)))
	b.WriteString(header)
	b.Write(make([]byte, size))
	f, err := safetensors.Parse(b.Bytes(), "test.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestGGUFSourceErrors(t *testing.T) {
	f := buildGGUF(t, []testTensor{
		{"ok", []uint64{32, 2}, 0, 256},
		{"iq2", []uint64{256, 1}, 16, 66}, // IQ2_XXS
		{"vec", []uint64{4}, 0, 16},
		{"q8vec", []uint64{32}, 8, 34}, // Q8_0
	})
	src := GGUFSource{F: f}
	tests := []errCase{
		{"matrix", func() error { _, err := src.Matrix("ok", 2, 32); return err }, nil, nil},
		{"missing", func() error { _, err := src.Matrix("nope", 2, 32); return err }, ErrWeights, []string{"nope"}},
		{"shape", func() error { _, err := src.Matrix("ok", 32, 2); return err }, ErrWeights, []string{"ok", "shape"}},
		{"type", func() error { _, err := src.Matrix("iq2", 1, 256); return err }, ErrUnsupported, []string{"iq2", "IQ2_XXS"}},
		{"vector", func() error { _, err := src.Vector("vec", 4); return err }, nil, nil},
		{"vector shape", func() error { _, err := src.Vector("vec", 5); return err }, ErrWeights, []string{"vec"}},
		{"quantized vector", func() error { _, err := src.Vector("q8vec", 32); return err }, nil, nil},
		{"vector type", func() error { _, err := src.Values("iq2", []int{1, 256}); return err }, ErrUnsupported, []string{"iq2", "IQ2_XXS"}},
	}
	runErrCases(t, tests)
}

func TestSafetensorsSourceErrors(t *testing.T) {
	header := `{"w":{"dtype":"F16","shape":[2,32],"data_offsets":[0,128]},` +
		`"i":{"dtype":"I8","shape":[2,32],"data_offsets":[128,192]},` +
		`"q.weight":{"dtype":"U32","shape":[2,4],"data_offsets":[192,224]}}`
	f := buildSafetensors(t, header, 224)
	src := SafetensorsSource{M: f, Dir: "testdir"}
	tests := []errCase{
		{"matrix", func() error { _, err := src.Matrix("w", 2, 32); return err }, nil, nil},
		{"type", func() error { _, err := src.Matrix("i", 2, 32); return err }, ErrUnsupported, []string{"i", "I8"}},
		{"packed without quantization", func() error { _, err := src.Matrix("q.weight", 2, 32); return err }, ErrUnsupported, []string{"quantization"}},
	}
	runErrCases(t, tests)
}

// errCase is a call and the error it must give: none (nil sentinel), or
// one wrapping sentinel whose text names every word.
type errCase struct {
	name     string
	call     func() error
	sentinel error
	words    []string
}

func runErrCases(t *testing.T, tests []errCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkErr(t, tt.call(), tt.sentinel, tt.words) })
	}
}

func checkErr(t *testing.T, err, sentinel error, words []string) {
	t.Helper()
	if sentinel == nil {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	if !errors.Is(err, sentinel) {
		t.Fatalf("error %v, want %v", err, sentinel)
	}
	for _, w := range words {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not name %q", err, w)
		}
	}
}
