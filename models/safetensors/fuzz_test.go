package safetensors

import (
	"errors"
	"testing"
)

// FuzzParse feeds arbitrary bytes to Parse: it must return a File or an
// error wrapping ErrFormat or ErrUnsupported, and every tensor it returns must
// lie inside the input with the size its dtype and shape give, with no
// negative or absurd dimension.
func FuzzParse(f *testing.F) {
	f.Add(build(f, map[string]string{"format": "mlx"}, spec{"w", "U32", []int{2, 1}}, spec{"s", "BF16", []int{2, 1}}))
	f.Add(build(f, nil, spec{"a", "F32", []int{2, 3}}, spec{"b", "I64", nil}, spec{"c", "U8", []int{0}}))
	f.Add(build(f, nil, spec{"x", "F16", []int{1, 1, 1, 1, 1, 1, 1, 1}}))
	f.Add(raw(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}`, make([]byte, 12)))
	f.Add(raw(`{"__metadata__":{"format":"pt"}}  `, nil))
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, '{'})
	f.Add(raw(`{"e":{"dtype":"U8","shape":[0,7],"data_offsets":[0,0]}}`, nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data, "fuzz")
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("error wraps neither sentinel: %v", err)
			}
			return
		}
		for _, name := range file.Names() {
			x, ok := file.Tensor(name)
			if !ok || len(x.Data) != x.Elements()*x.DType.Size() || len(x.Shape) > MaxRank {
				t.Fatalf("tensor %q: %d bytes, shape %v, %s", name, len(x.Data), x.Shape, x.DType)
			}
			for _, d := range x.Shape {
				if d < 0 || d > max(len(data), maxDim) {
					t.Fatalf("tensor %q: shape %v has a dimension no buffer could hold", name, x.Shape)
				}
			}
		}
	})
}
