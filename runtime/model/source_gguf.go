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
	m, err := s.raw(name, []uint64{uint64(cols), uint64(rows)}, rows, cols)
	if err != nil {
		return nil, err
	}
	return newMatrix(m, s.Where(), name)
}

// Experts returns the n experts of a tensor of GGUF dims [cols, rows, n]
// ([cols, rows] for n = 1), each a view of its part of the file mapping.
func (s GGUFSource) Experts(name string, n, rows, cols int) ([]*kernels.Matrix, error) {
	dims := []uint64{uint64(cols), uint64(rows), uint64(n)}
	if t, ok := s.F.Tensor(name); ok && n == 1 && len(t.Dims) == 2 {
		dims = dims[:2]
	}
	m, err := s.raw(name, dims, n*rows, cols)
	if err != nil {
		return nil, err
	}
	return splitExperts(m, n, s.Where(), name)
}

// raw returns the tensor of the given dims as an unchecked matrix of rows ×
// cols.
func (s GGUFSource) raw(name string, dims []uint64, rows, cols int) (kernels.Matrix, error) {
	t, ok := s.F.Tensor(name)
	if !ok {
		return kernels.Matrix{}, missing(s, name)
	}
	if !sameDims(t.Dims, dims) {
		return kernels.Matrix{}, badShape(s, name, t.Dims, dims)
	}
	dt, ok := kernels.FromGGML(uint32(t.Type))
	if !ok {
		return kernels.Matrix{}, fmt.Errorf("%w: %s: tensor %s has type %v, which the kernels cannot compute", ErrUnsupported, s.Where(), name, t.Type)
	}
	// llama.cpp's products of F16 weights take F16 activations (HalfActs)
	// and those of F32 weights sum in its x86 order (GGMLSums, where
	// kernels.GGMLOrder): they are equal.
	return kernels.Matrix{Type: dt, Rows: rows, Cols: cols, Data: s.F.TensorData(t), HalfActs: true, GGMLSums: kernels.GGMLOrder()}, nil
}

// Vector returns a one-dimensional tensor of n values, converted to float32.
func (s GGUFSource) Vector(name string, n int) ([]float32, error) {
	return s.Values(name, []int{n})
}

// Values returns a tensor of the given shape (outermost dimension first,
// the reverse of GGUF's dims), converted to float32.
func (s GGUFSource) Values(name string, shape []int) ([]float32, error) {
	t, ok := s.F.Tensor(name)
	if !ok {
		return nil, missing(s, name)
	}
	n, dims := 1, make([]uint64, len(shape))
	for i, d := range shape {
		n, dims[len(shape)-1-i] = n*d, uint64(d)
	}
	if !sameDims(t.Dims, dims) {
		return nil, badShape(s, name, t.Dims, dims)
	}
	dt, ok := kernels.FromGGML(uint32(t.Type))
	if !ok {
		return nil, fmt.Errorf("%w: %s: tensor %s has type %v, which the kernels cannot decode", ErrUnsupported, s.Where(), name, t.Type)
	}
	return decodeValues(s, name, dt, s.F.TensorData(t), n)
}

// sameDims reports whether GGUF dims a and b are one shape: equal but for
// trailing dimensions of 1, which ggml leaves out when it writes a tensor
// (llama-quantize stores a [hidden, 1] tensor as [hidden]).
func sameDims(a, b []uint64) bool {
	trim := func(d []uint64) []uint64 {
		for len(d) > 1 && d[len(d)-1] == 1 {
			d = d[:len(d)-1]
		}
		return d
	}
	return slices.Equal(trim(a), trim(b))
}
