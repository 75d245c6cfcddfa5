package model

import (
	"slices"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/models/gguf"
	"github.com/mlxrun/mlx/models/safetensors"
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

// TestMLXMatrixAfterRelease checks the same for a packed MLX matrix, whose
// scales and biases the source gives back as well as its words.
func TestMLXMatrixAfterRelease(t *testing.T) {
	dir := fixture.Path(t, "models", "llama-tiny-mlx-4bit")
	cfg, err := config.FromHFDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := safetensors.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	src := SafetensorsSource{M: m, Dir: dir, Quant: cfg.Quantization}
	for _, name := range []string{"model.embed_tokens", "model.layers.0.mlp.down_proj"} {
		w, ok := m.Tensor(name + ".weight")
		if !ok {
			t.Fatalf("%s has no %s.weight", dir, name)
		}
		rows, cols := w.Shape[0], w.Shape[1]*32/cfg.Quantization.Bits
		got, err := src.Matrix(name+".weight", rows, cols)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Packed() {
			t.Skipf("%s: the kernels of this CPU do not pack MLX matrices, so nothing is released", name)
		}
		want := kernels.Matrix{Type: kernels.MLXAffine, Rows: rows, Cols: cols, Bits: got.Bits, GroupSize: got.GroupSize, ScaleType: got.ScaleType, Data: slices.Clone(w.Data)}
		for suffix, dst := range map[string]*[]byte{".scales": &want.Scales, ".biases": &want.Biases} {
			p, ok := m.Tensor(name + suffix)
			if !ok {
				t.Fatalf("%s has no %s%s", dir, name, suffix)
			}
			*dst = slices.Clone(p.Data)
		}
		heap, err := kernels.NewMatrix(want)
		if err != nil {
			t.Fatal(err)
		}
		compareRows(t, name, got, heap)
	}
}
