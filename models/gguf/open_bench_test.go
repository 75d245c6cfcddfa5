package gguf

import (
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

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
