package gguf

import (
	"errors"
	"os"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// FuzzOpen feeds arbitrary bytes to Parse: it must return a File or an
// error wrapping ErrFormat or ErrUnsupported, never panic, and a File it
// returns must be safe to use throughout.
func FuzzOpen(f *testing.F) {
	for _, v := range []uint32{2, 3} {
		f.Add(sampleModel(v).build())
	}
	aligned := sampleModel(3)
	aligned.align = 64
	f.Add(aligned.build())
	for _, tc := range hostileCases() {
		f.Add(tc.data)
	}
	head, err := os.ReadFile(fixture.Path(f, "gguf", "llama-tiny-Q4_0.gguf"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(head[:4096])
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data, "fuzz.gguf")
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
			return
		}
		exercise(t, file)
	})
}

// exercise calls every accessor of a parsed file.
func exercise(t *testing.T, f *File) {
	t.Helper()
	for _, kv := range f.KV {
		kv.Value.Any()
		f.String(kv.Key)
		f.Uint(kv.Key)
		f.Int(kv.Key)
		f.Float(kv.Key)
		f.Bool(kv.Key)
		f.Strings(kv.Key)
		f.Ints(kv.Key)
		f.Floats(kv.Key)
	}
	for i := range f.Tensors {
		ti := &f.Tensors[i]
		data := f.TensorData(ti)
		if uint64(len(data)) != ti.Size {
			t.Fatalf("%s: %d bytes of data, Size %d", ti.Name, len(data), ti.Size)
		}
		if got, _ := f.Tensor(ti.Name); got != ti {
			t.Fatalf("Tensor(%q) is not Tensors[%d]", ti.Name, i)
		}
	}
}
