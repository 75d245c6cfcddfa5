package model

import (
	"slices"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/models/gguf"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// TestMatrixAfterRelease checks that matrices whose file pages the source
// gave back (the packed formats) still read the same as ones built from a
// copy of the bytes on the heap.
func TestMatrixAfterRelease(t *testing.T) {
	for _, file := range []string{"llama-tiny-Q8_0.gguf", "llama-tiny-Q4_0.gguf", "llama-tiny-F16.gguf"} {
		t.Run(file, func(t *testing.T) {
			f, err := gguf.Open(fixture.Path(t, "gguf", file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			src := GGUFSource{F: f}
			for _, name := range []string{"token_embd.weight", "blk.0.ffn_down.weight"} {
				ti, ok := f.Tensor(name)
				if !ok {
					t.Fatalf("%s has no %s", file, name)
				}
				rows, cols := int(ti.Dims[1]), int(ti.Dims[0])
				heap := slices.Clone(f.TensorData(ti))
				got, err := src.Matrix(name, rows, cols)
				if err != nil {
					t.Fatal(err)
				}
				want, err := kernels.NewMatrix(kernels.Matrix{Type: got.Type, Rows: rows, Cols: cols, Data: heap})
				if err != nil {
					t.Fatal(err)
				}
				compareRows(t, name, got, want)
			}
		})
	}
}

func compareRows(t *testing.T, name string, got, want *kernels.Matrix) {
	t.Helper()
	a, b := make([]float32, got.Cols), make([]float32, got.Cols)
	for r := range got.Rows {
		got.Row(r, a)
		want.Row(r, b)
		if !slices.Equal(a, b) {
			t.Fatalf("%s row %d differs from a copy on the heap", name, r)
		}
	}
}
