package safetensors

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"
)

func TestParseDTypes(t *testing.T) {
	for _, name := range []string{"F32", "F16", "BF16", "I8", "U8", "I32", "U32", "I64"} {
		t.Run(name, func(t *testing.T) {
			data := build(t, nil, spec{"w", name, []int{2, 3}})
			f, err := Parse(data, "mem.safetensors")
			if err != nil {
				t.Fatal(err)
			}
			w, ok := f.Tensor("w")
			if !ok {
				t.Fatal("tensor w missing")
			}
			if w.DType.String() != name || w.Elements() != 6 || len(w.Data) != 6*w.DType.Size() {
				t.Fatalf("got %s, %d elements, %d bytes", w.DType, w.Elements(), len(w.Data))
			}
			if w.Name != "w" || w.File != "mem.safetensors" || len(w.Shape) != 2 || w.Shape[0] != 2 || w.Shape[1] != 3 {
				t.Fatalf("got %+v", w)
			}
			data[len(data)-1] ^= 0xff // the data must alias the input: zero copy
			if w.Data[len(w.Data)-1] != data[len(data)-1] {
				t.Fatal("tensor data is a copy of the file")
			}
		})
	}
}

func TestParseMetadataAndOrder(t *testing.T) {
	data := build(t, map[string]string{"format": "mlx"},
		spec{"b", "BF16", []int{4}}, spec{"a", "U32", []int{2, 2}}, spec{"scalar", "F32", nil}, spec{"empty", "F16", []int{0, 5}})
	f, err := Parse(data, "m")
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Metadata(); !maps.Equal(got, map[string]string{"format": "mlx"}) {
		t.Fatalf("metadata %v", got)
	}
	f.Metadata()["format"] = "changed"
	if f.Metadata()["format"] != "mlx" {
		t.Fatal("Metadata returned the file's own map")
	}
	if got := strings.Join(f.Names(), ","); got != "a,b,empty,scalar" || f.Len() != 4 {
		t.Fatalf("names %s", got)
	}
	if s, _ := f.Tensor("scalar"); s.Elements() != 1 || len(s.Data) != 4 {
		t.Fatalf("scalar %+v", s)
	}
	if e, _ := f.Tensor("empty"); e.Elements() != 0 || len(e.Data) != 0 {
		t.Fatalf("empty %+v", e)
	}
	if _, ok := f.Tensor("missing"); ok {
		t.Fatal("found a tensor that is not there")
	}
}

func TestParseNoMetadata(t *testing.T) {
	f, err := Parse(raw(`{}   `, nil), "m")
	if err != nil {
		t.Fatal(err)
	}
	if f.Len() != 0 || f.Metadata() == nil || len(f.Metadata()) != 0 {
		t.Fatalf("got %d tensors, metadata %v", f.Len(), f.Metadata())
	}
}

func TestParseBadHeader(t *testing.T) {
	body := make([]byte, 64)
	tests := []struct {
		name, header string
		want         error
		msg          string
	}{
		{"not an object", `[]`, ErrFormat, "not a JSON object"},
		{"cut JSON", `{"a":`, ErrFormat, "cut short"},
		{"cut key", `{"a"`, ErrFormat, "cut short"},
		{"cut object", `{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}`, ErrFormat, "cut short"},
		{"trailing data", `{} x`, ErrFormat, "after the header"},
		{"two objects", `{}{}`, ErrFormat, "after the header"},
		{"invalid UTF-8", "{\"\xff\":1}", ErrFormat, "UTF-8"},
		{"entry not object", `{"a":5}`, ErrFormat, `tensor "a"`},
		{"entry null", `{"a":null}`, ErrFormat, "needs dtype"},
		{"missing dtype", `{"a":{"shape":[1],"data_offsets":[0,4]}}`, ErrFormat, "needs dtype"},
		{"missing shape", `{"a":{"dtype":"F32","data_offsets":[0,4]}}`, ErrFormat, "needs dtype"},
		{"missing offsets", `{"a":{"dtype":"F32","shape":[1]}}`, ErrFormat, "needs dtype"},
		{"unknown dtype", `{"a":{"dtype":"Q4","shape":[1],"data_offsets":[0,4]}}`, ErrFormat, `unknown dtype "Q4"`},
		{"dtype not string", `{"a":{"dtype":1,"shape":[1],"data_offsets":[0,4]}}`, ErrFormat, `tensor "a"`},
		{"F64", `{"a":{"dtype":"F64","shape":[1],"data_offsets":[0,8]}}`, ErrUnsupported, "dtype F64"},
		{"BOOL", `{"a":{"dtype":"BOOL","shape":[1],"data_offsets":[0,1]}}`, ErrUnsupported, "dtype BOOL"},
		{"F8", `{"a":{"dtype":"F8_E4M3","shape":[1],"data_offsets":[0,1]}}`, ErrUnsupported, "dtype F8_E4M3"},
		{"negative dim", `{"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}}`, ErrFormat, "non-negative integer"},
		{"fractional dim", `{"a":{"dtype":"F32","shape":[1.5],"data_offsets":[0,4]}}`, ErrFormat, "non-negative integer"},
		{"shape not array", `{"a":{"dtype":"F32","shape":"x","data_offsets":[0,4]}}`, ErrFormat, "array of integers"},
		{"rank 9", `{"a":{"dtype":"U8","shape":[1,1,1,1,1,1,1,1,1],"data_offsets":[0,1]}}`, ErrFormat, "more than 8 values"},
		{"huge dim", `{"a":{"dtype":"U8","shape":[99999999999999999999],"data_offsets":[0,1]}}`, ErrFormat, "non-negative integer"},
		{"three offsets", `{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4,8]}}`, ErrFormat, "3 values"},
		{"one offset", `{"a":{"dtype":"F32","shape":[1],"data_offsets":[4]}}`, ErrFormat, "1 values"},
		{"start after end", `{"a":{"dtype":"F32","shape":[1],"data_offsets":[8,4]}}`, ErrFormat, "outside"},
		{"end past data", `{"a":{"dtype":"F32","shape":[1],"data_offsets":[64,68]}}`, ErrFormat, "outside the 64-byte data section"},
		{"max offsets", `{"a":{"dtype":"F32","shape":[1],"data_offsets":[18446744073709551615,18446744073709551615]}}`, ErrFormat, "outside"},
		{"size mismatch", `{"a":{"dtype":"F32","shape":[2,2],"data_offsets":[0,8]}}`, ErrFormat, "needs 16 bytes, data_offsets give 8"},
		{"size overflow", `{"a":{"dtype":"F32","shape":[4294967296,4294967296,16],"data_offsets":[0,0]}}`, ErrFormat, "more than 2^64"},
		{"size wraps to zero", `{"a":{"dtype":"U8","shape":[4294967296,4294967296],"data_offsets":[0,0]}}`, ErrFormat, "more than 2^64"},
		{"empty with dim past int", `{"a":{"dtype":"U8","shape":[0,18446744073709551615],"data_offsets":[0,0]}}`, ErrFormat, "dimension 18446744073709551615"},
		{"empty with huge dim", `{"a":{"dtype":"F32","shape":[1099511627776,0],"data_offsets":[0,0]}}`, ErrFormat, "dimension 1099511627776"},
		{"overlap", `{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}`, ErrFormat, "overlap"},
		{"same range", `{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"U8","shape":[8],"data_offsets":[0,8]}}`, ErrFormat, "overlap"},
		{"duplicate tensor", `{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"a":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}}`, ErrFormat, `names "a" twice`},
		{"duplicate metadata", `{"__metadata__":{},"__metadata__":{}}`, ErrFormat, "twice"},
		{"metadata number", `{"__metadata__":{"format":1}}`, ErrFormat, "strings to strings"},
		{"metadata array", `{"__metadata__":[]}`, ErrFormat, "strings to strings"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(raw(tt.header, body), "bad.safetensors")
			checkErr(t, err, tt.want, tt.msg)
			if !strings.Contains(err.Error(), "bad.safetensors") {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

func TestParseBadLength(t *testing.T) {
	huge := binary.LittleEndian.AppendUint64(nil, MaxHeaderSize+1)
	past := binary.LittleEndian.AppendUint64(nil, 100)
	wrap := binary.LittleEndian.AppendUint64(nil, 1<<64-1)
	tests := []struct {
		name string
		data []byte
		msg  string
	}{
		{"empty", nil, "shorter than the 8-byte"},
		{"7 bytes", make([]byte, 7), "shorter than the 8-byte"},
		{"over the limit", append(huge, "{}"...), "exceeds the limit"},
		{"past the end", append(past, "{}"...), "exceeds the 2 bytes"},
		{"max uint64", append(wrap, "{}"...), "exceeds the limit"},
		{"zero length", make([]byte, 8), "not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.data, "len.safetensors")
			checkErr(t, err, ErrFormat, tt.msg)
		})
	}
}

// TestParseTruncated cuts a valid file at every byte: each prefix must fail
// cleanly.
func TestParseTruncated(t *testing.T) {
	data := build(t, map[string]string{"format": "pt"},
		spec{"a", "F32", []int{2, 3}}, spec{"b", "BF16", []int{3}}, spec{"c", "I64", []int{1}}, spec{"d", "U8", []int{5}})
	if _, err := Parse(data, "full"); err != nil {
		t.Fatal(err)
	}
	for n := range len(data) {
		if _, err := Parse(data[:n], "cut"); !errors.Is(err, ErrFormat) {
			t.Fatalf("cut at %d of %d: got %v, want ErrFormat", n, len(data), err)
		}
	}
}

func checkErr(t *testing.T, err, want error, msg string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("got %v, want %v", err, want)
	}
	if !strings.Contains(err.Error(), msg) {
		t.Fatalf("error %q does not say %q", err, msg)
	}
}

// TestLongNamesInErrors checks that errors quote at most a short piece of a
// long tensor name or dtype from the header.
func TestLongNamesInErrors(t *testing.T) {
	long := strings.Repeat("n", 1<<20)
	for name, header := range map[string]string{
		"bad entry":   `{"` + long + `":5}`,
		"bad offsets": `{"` + long + `":{"dtype":"F32","shape":[1],"data_offsets":[0,8]}}`,
		"dtype":       `{"a":{"dtype":"` + long + `","shape":[1],"data_offsets":[0,4]}}`,
		"duplicate":   `{"` + long + `":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"` + long + `":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}}`,
		"overlap": `{"` + long + `a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"` + long +
			`b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(raw(header, make([]byte, 64)), "long.safetensors")
			if !errors.Is(err, ErrFormat) || len(err.Error()) > 1000 {
				t.Fatalf("got an error of %d bytes: %.300v", len(fmt.Sprint(err)), err)
			}
		})
	}
}
