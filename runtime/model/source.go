package model

import (
	"encoding/binary"
	"fmt"
	"math"

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

// floats decodes little-endian float32, IEEE half or bfloat16 values.
func floats(data []byte, elem int, kind string) []float32 {
	out := make([]float32, len(data)/elem)
	for i := range out {
		switch kind {
		case "F32":
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		case "F16":
			out[i] = halfToF32(binary.LittleEndian.Uint16(data[2*i:]))
		case "BF16":
			out[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(data[2*i:])) << 16)
		}
	}
	return out
}

func halfToF32(h uint16) float32 {
	var out [1]float32
	kernels.F16ToF32(out[:], []uint16{h})
	return out[0]
}
