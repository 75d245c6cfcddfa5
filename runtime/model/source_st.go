package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/safetensors"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// SafetensorsSource reads tensors from a Hugging Face model directory, with
// the MLX affine quantization (X.weight packed in U32 words beside X.scales
// and X.biases) when Quant is set.
type SafetensorsSource struct {
	M     Tensors
	Dir   string // for messages
	Quant *config.Quantization
}

// Tensors looks tensors up by name: a *safetensors.Model or *safetensors.File.
type Tensors interface {
	Tensor(name string) (*safetensors.Tensor, bool)
}

// Where returns the directory.
func (s SafetensorsSource) Where() string { return s.Dir }

// Has reports whether the directory holds the tensor.
func (s SafetensorsSource) Has(name string) bool {
	_, ok := s.M.Tensor(name)
	return ok
}

var stKinds = map[safetensors.DType]kernels.DType{
	safetensors.F32: kernels.F32, safetensors.F16: kernels.F16, safetensors.BF16: kernels.BF16,
}

// Matrix returns a rows × cols tensor (shape [rows, cols]), zero-copy.
func (s SafetensorsSource) Matrix(name string, rows, cols int) (*kernels.Matrix, error) {
	m, err := s.raw(name, nil, rows, cols)
	if err != nil {
		return nil, err
	}
	return newMatrix(m, s.Where(), name)
}

// Experts returns the n experts of a tensor of shape [n, rows, cols] (or
// [rows, cols] for n = 1; MLX packs the last dimension with its scales and
// biases beside), each a view of its part of the mapping.
func (s SafetensorsSource) Experts(name string, n, rows, cols int) ([]*kernels.Matrix, error) {
	lead := []int{n}
	if t, ok := s.M.Tensor(name); ok && n == 1 && len(t.Shape) == 2 {
		lead = nil
	}
	m, err := s.raw(name, lead, rows, cols)
	if err != nil {
		return nil, err
	}
	m.Rows *= n
	return splitExperts(m, n, s.Where(), name)
}

// raw returns the tensor of shape lead + [rows, cols] as an unchecked
// matrix of rows × cols.
func (s SafetensorsSource) raw(name string, lead []int, rows, cols int) (kernels.Matrix, error) {
	t, ok := s.M.Tensor(name)
	if !ok {
		return kernels.Matrix{}, missing(s, name)
	}
	if t.DType == safetensors.U32 {
		return s.affine(t, lead, rows, cols)
	}
	dt, ok := stKinds[t.DType]
	if !ok {
		return kernels.Matrix{}, fmt.Errorf("%w: %s: tensor %s has type %v, which the kernels cannot compute", ErrUnsupported, t.File, name, t.DType)
	}
	if want := append(slices.Clone(lead), rows, cols); !slices.Equal(t.Shape, want) {
		return kernels.Matrix{}, badShape(s, name, t.Shape, want)
	}
	return kernels.Matrix{Type: dt, Rows: rows, Cols: cols, Data: t.Data}, nil
}

// affine reads an MLX-quantized tensor: packed words, scales and biases.
func (s SafetensorsSource) affine(t *safetensors.Tensor, lead []int, rows, cols int) (kernels.Matrix, error) {
	q := s.Quant
	if q == nil {
		return kernels.Matrix{}, fmt.Errorf("%w: %s: tensor %s is packed U32 but config.json has no quantization", ErrUnsupported, t.File, t.Name)
	}
	if q.Mode != "" && q.Mode != "affine" {
		return kernels.Matrix{}, fmt.Errorf("%w: %s: quantization mode %q (only affine is supported)", ErrUnsupported, s.Where(), q.Mode)
	}
	if want := append(slices.Clone(lead), rows, cols*q.Bits/32); cols*q.Bits%32 != 0 || !slices.Equal(t.Shape, want) {
		return kernels.Matrix{}, badShape(s, t.Name, t.Shape, want)
	}
	base := strings.TrimSuffix(t.Name, ".weight")
	m := kernels.Matrix{Type: kernels.MLXAffine, Rows: rows, Cols: cols, Data: t.Data, Bits: q.Bits, GroupSize: q.GroupSize}
	for i, part := range []struct {
		suffix string
		dst    *[]byte
	}{{".scales", &m.Scales}, {".biases", &m.Biases}} {
		p, ok := s.M.Tensor(base + part.suffix)
		if !ok {
			return kernels.Matrix{}, missing(s, base+part.suffix)
		}
		dt, ok := stKinds[p.DType]
		if !ok || (i > 0 && dt != m.ScaleType) {
			return kernels.Matrix{}, fmt.Errorf("%w: %s: tensor %s has type %v", ErrUnsupported, p.File, p.Name, p.DType)
		}
		if want := append(slices.Clone(lead), rows, cols/max(q.GroupSize, 1)); !slices.Equal(p.Shape, want) {
			return kernels.Matrix{}, badShape(s, p.Name, p.Shape, want)
		}
		m.ScaleType, *part.dst = dt, p.Data
	}
	return m, nil
}

// Vector returns a one-dimensional tensor of n values as float32.
func (s SafetensorsSource) Vector(name string, n int) ([]float32, error) {
	return s.Values(name, []int{n})
}

// Values returns a tensor of the given shape as float32.
func (s SafetensorsSource) Values(name string, shape []int) ([]float32, error) {
	t, ok := s.M.Tensor(name)
	if !ok {
		return nil, missing(s, name)
	}
	if !slices.Equal(t.Shape, shape) {
		return nil, badShape(s, name, t.Shape, shape)
	}
	if dt, ok := stKinds[t.DType]; ok {
		return decodeValues(s, name, dt, t.Data, t.Elements())
	}
	return nil, fmt.Errorf("%w: %s: tensor %s has type %v", ErrUnsupported, t.File, name, t.DType)
}
