package model

import (
	"testing"
	"unsafe"

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
