package model

import (
	"fmt"

	"github.com/mlxrun/mlx/runtime/kernels"
)

// Source gives a model's tensors by name, checking their shapes.
type Source interface {
	// Matrix returns the rows × cols weight matrix of that name, zero-copy.
	Matrix(name string, rows, cols int) (*kernels.Matrix, error)
	// Experts returns the n experts' matrices of rows × cols stacked in
	// the tensor of that name (a two-dimensional tensor holds one, n = 1),
	// zero-copy and read in place by the kernels (NewMatrixUnpacked).
	Experts(name string, n, rows, cols int) ([]*kernels.Matrix, error)
	// Vector returns the n values of a one-dimensional tensor as float32.
	Vector(name string, n int) ([]float32, error)
	// Has reports whether the tensor exists.
	Has(name string) bool
	// Where names the file or directory, for messages.
	Where() string
}

func missing(s Source, name string) error {
	return fmt.Errorf("%w: %s has no tensor %s", ErrWeights, s.Where(), name)
}

func badShape(s Source, name string, got any, want any) error {
	return fmt.Errorf("%w: %s: tensor %s has shape %v, want %v", ErrWeights, s.Where(), name, got, want)
}

// decodeValues converts n stored values of format t to float32 with the
// kernels' decoder.
func decodeValues(s Source, name string, t kernels.DType, data []byte, n int) ([]float32, error) {
	out := make([]float32, n)
	if err := kernels.Decode(t, data, out); err != nil {
		return nil, fmt.Errorf("%w: %s: tensor %s: %w", ErrWeights, s.Where(), name, err)
	}
	return out, nil
}
