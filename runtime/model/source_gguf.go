package model

import (
	"fmt"
	"slices"

	"github.com/mlxrun/mlx/models/gguf"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// GGUFSource reads tensors from an open GGUF file.
type GGUFSource struct {
	F *gguf.File
}

// Where returns the file's path.
func (s GGUFSource) Where() string { return s.F.Path }

// Has reports whether the file holds the tensor.
func (s GGUFSource) Has(name string) bool {
	_, ok := s.F.Tensor(name)
	return ok
}

// Matrix returns a rows × cols tensor (GGUF dims [cols, rows]) in its stored
// type, pointing into the file mapping.
func (s GGUFSource) Matrix(name string, rows, cols int) (*kernels.Matrix, error) {
	t, ok := s.F.Tensor(name)
	if !ok {
		return nil, missing(s, name)
	}
	if !slices.Equal(t.Dims, []uint64{uint64(cols), uint64(rows)}) {
		return nil, badShape(s, name, t.Dims, []int{cols, rows})
	}
	dt, ok := kernels.FromGGML(uint32(t.Type))
	if !ok {
		return nil, fmt.Errorf("%w: %s: tensor %s has type %v, which the kernels cannot compute", ErrUnsupported, s.Where(), name, t.Type)
	}
	return newMatrix(kernels.Matrix{Type: dt, Rows: rows, Cols: cols, Data: s.F.TensorData(t)}, s.Where(), name)
}

// Vector returns a one-dimensional tensor of n values, converted to float32.
func (s GGUFSource) Vector(name string, n int) ([]float32, error) {
	t, ok := s.F.Tensor(name)
	if !ok {
		return nil, missing(s, name)
	}
	if !slices.Equal(t.Dims, []uint64{uint64(n)}) {
		return nil, badShape(s, name, t.Dims, []int{n})
	}
	data := s.F.TensorData(t)
	switch t.Type {
	case gguf.TypeF32:
		return floats(data, 4, "F32"), nil
	case gguf.TypeF16:
		return floats(data, 2, "F16"), nil
	case gguf.TypeBF16:
		return floats(data, 2, "BF16"), nil
	}
	out := make([]float32, n)
	if err := gguf.Dequantize(t.Type, data, out); err != nil {
		return nil, fmt.Errorf("%w: %s: tensor %s: %w", ErrUnsupported, s.Where(), name, err)
	}
	return out, nil
}
