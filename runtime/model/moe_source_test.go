package model

import (
	"errors"
	"testing"
	"unsafe"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// TestGGUFExperts checks that a stacked expert tensor is bound as views of
// its parts of the file, unpacked, and that wrong shapes are refused.
func TestGGUFExperts(t *testing.T) {
	f := buildGGUF(t, []testTensor{
		{"exps", []uint64{32, 4, 3}, 8, 3 * 4 * 34}, // Q8_0, 3 experts of 4 × 32
		{"one", []uint64{32, 4}, 8, 4 * 34},
	})
	src := GGUFSource{F: f}
	ws, err := src.Experts("exps", 3, 4, 32)
	if err != nil {
		t.Fatal(err)
	}
	tensor, _ := f.Tensor("exps")
	checkViews(t, ws, f.TensorData(tensor), 4*34)
	if _, err := src.Experts("one", 1, 4, 32); err != nil {
		t.Errorf("a two-dimensional tensor as one expert: %v", err)
	}
	runErrCases(t, []errCase{
		{"count", func() error { _, err := src.Experts("exps", 4, 4, 32); return err }, ErrWeights, []string{"exps", "shape"}},
		{"rows", func() error { _, err := src.Experts("exps", 3, 3, 32); return err }, ErrWeights, []string{"exps"}},
		{"two-dimensional", func() error { _, err := src.Experts("one", 2, 2, 32); return err }, ErrWeights, []string{"one"}},
		{"missing", func() error { _, err := src.Experts("nope", 3, 4, 32); return err }, ErrWeights, []string{"nope"}},
	})
}

// TestSafetensorsExperts checks stacked experts and one expert's matrix
// from a safetensors file.
func TestSafetensorsExperts(t *testing.T) {
	header := `{"exps":{"dtype":"BF16","shape":[2,3,32],"data_offsets":[0,384]},` +
		`"one":{"dtype":"F32","shape":[3,32],"data_offsets":[384,768]}}`
	for len(header)%8 != 0 { // aligned data, as real files pad their header
		header += " "
	}
	f := buildSafetensors(t, header, 768)
	src := SafetensorsSource{M: f, Dir: "testdir"}
	ws, err := src.Experts("exps", 2, 3, 32)
	if err != nil {
		t.Fatal(err)
	}
	tensor, _ := f.Tensor("exps")
	checkViews(t, ws, tensor.Data, 3*32*2)
	if _, err := src.Experts("one", 1, 3, 32); err != nil {
		t.Errorf("a two-dimensional tensor as one expert: %v", err)
	}
	runErrCases(t, []errCase{
		{"count", func() error { _, err := src.Experts("exps", 3, 3, 32); return err }, ErrWeights, []string{"exps", "shape"}},
		{"cols", func() error { _, err := src.Experts("one", 1, 3, 16); return err }, ErrWeights, []string{"one"}},
	})
}

// checkViews checks that each expert's data is its part of data, in place,
// and that the kernels made no packed copy.
func checkViews(t *testing.T, ws []*kernels.Matrix, data []byte, per int) {
	t.Helper()
	for x, w := range ws {
		if len(w.Data) != per || unsafe.SliceData(w.Data) != &data[x*per] {
			t.Errorf("expert %d is not a view of its part of the tensor", x)
		}
		if w.Packed() {
			t.Errorf("expert %d has a packed copy", x)
		}
	}
}

// TestSafetensorsExpertsAffine checks stacked MLX 4-bit experts: each
// expert's words, scales and biases are its parts of the stacked tensors.
func TestSafetensorsExpertsAffine(t *testing.T) {
	// 2 experts of 3 × 64: 8 words per row, groups of 32 with BF16 scales.
	header := `{"e.weight":{"dtype":"U32","shape":[2,3,8],"data_offsets":[0,192]},` +
		`"e.scales":{"dtype":"BF16","shape":[2,3,2],"data_offsets":[192,216]},` +
		`"e.biases":{"dtype":"BF16","shape":[2,3,2],"data_offsets":[216,240]}}`
	for len(header)%8 != 0 {
		header += " "
	}
	f := buildSafetensors(t, header, 240)
	src := SafetensorsSource{M: f, Dir: "testdir", Quant: &config.Quantization{GroupSize: 32, Bits: 4, Mode: "affine"}}
	ws, err := src.Experts("e.weight", 2, 3, 64)
	if err != nil {
		t.Fatal(err)
	}
	words, _ := f.Tensor("e.weight")
	scales, _ := f.Tensor("e.scales")
	biases, _ := f.Tensor("e.biases")
	for x, w := range ws {
		if unsafe.SliceData(w.Data) != &words.Data[x*96] || unsafe.SliceData(w.Scales) != &scales.Data[x*12] ||
			unsafe.SliceData(w.Biases) != &biases.Data[x*12] || len(w.Scales) != 12 {
			t.Errorf("expert %d is not a view of its parts of the tensors", x)
		}
	}
	if _, err := src.Experts("e.weight", 3, 2, 64); !errors.Is(err, ErrWeights) {
		t.Errorf("3 experts of 2 rows: error %v, want ErrWeights", err)
	}
}
