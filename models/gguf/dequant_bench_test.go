package gguf

import (
	"math/rand/v2"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// BenchmarkDequantize measures the reference dequantizers on 64 Ki values
// of random blocks; bytes/s counts the float32 output.
func BenchmarkDequantize(b *testing.B) {
	const n = 1 << 16
	for _, typ := range []TensorType{TypeF16, TypeBF16, TypeQ8_0, TypeQ4_0, TypeQ4_K, TypeQ6_K} {
		b.Run(typ.String(), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 1))
			e := new(enc)
			for e.b == nil || len(e.b) < n/typ.BlockSize()*typ.TypeSize() {
				blockGens[typ](r, e)
			}
			dst := make([]float32, n)
			b.SetBytes(4 * n)
			b.ReportAllocs()
			for b.Loop() {
				if err := Dequantize(typ, e.b, dst); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkOpen measures opening a model file: mapping it and parsing its
// 49152-token vocabulary and tensor table.
func BenchmarkOpen(b *testing.B) {
	path := fixture.Path(b, "gguf", "llama-tiny-Q4_0.gguf")
	b.ReportAllocs()
	for b.Loop() {
		f, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}
