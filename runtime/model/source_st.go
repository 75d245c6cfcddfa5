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
	t, ok := s.M.Tensor(name)
	if !ok {
		return nil, missing(s, name)
	}
	if t.DType == safetensors.U32 {
		return s.affine(t, rows, cols)
	}
	dt, ok := stKinds[t.DType]
	if !ok {
		return nil, fmt.Errorf("%w: %s: tensor %s has type %v, which the kernels cannot compute", ErrUnsupported, t.File, name, t.DType)
	}
	if !slices.Equal(t.Shape, []int{rows, cols}) {
		return nil, badShape(s, name, t.Shape, []int{rows, cols})
	}
	return newMatrix(kernels.Matrix{Type: dt, Rows: rows, Cols: cols, Data: t.Data}, t.File, name)
}

// affine binds an MLX-quantized matrix: packed words, scales and biases.
func (s SafetensorsSource) affine(t *safetensors.Tensor, rows, cols int) (*kernels.Matrix, error) {
	q := s.Quant
	if q == nil {
		return nil, fmt.Errorf("%w: %s: tensor %s is packed U32 but config.json has no quantization", ErrUnsupported, t.File, t.Name)
	}
	if q.Mode != "" && q.Mode != "affine" {
		return nil, fmt.Errorf("%w: %s: quantization mode %q (only affine is supported)", ErrUnsupported, s.Where(), q.Mode)
	}
	if want := []int{rows, cols * q.Bits / 32}; cols*q.Bits%32 != 0 || !slices.Equal(t.Shape, want) {
		return nil, badShape(s, t.Name, t.Shape, want)
	}
	base := strings.TrimSuffix(t.Name, ".weight")
	m := kernels.Matrix{Type: kernels.MLXAffine, Rows: rows, Cols: cols, Data: t.Data, Bits: q.Bits, GroupSize: q.GroupSize}
	for i, part := range []struct {
		suffix string
		dst    *[]byte
	}{{".scales", &m.Scales}, {".biases", &m.Biases}} {
		p, ok := s.M.Tensor(base + part.suffix)
		if !ok {
			return nil, missing(s, base+part.suffix)
		}
		dt, ok := stKinds[p.DType]
		if !ok || (i > 0 && dt != m.ScaleType) {
			return nil, fmt.Errorf("%w: %s: tensor %s has type %v", ErrUnsupported, p.File, p.Name, p.DType)
		}
		if want := []int{rows, cols / max(q.GroupSize, 1)}; !slices.Equal(p.Shape, want) {
			return nil, badShape(s, p.Name, p.Shape, want)
		}
		m.ScaleType, *part.dst = dt, p.Data
	}
	return newMatrix(m, t.File, t.Name)
}

// Vector returns a one-dimensional tensor of n values as float32.
func (s SafetensorsSource) Vector(name string, n int) ([]float32, error) {
	t, ok := s.M.Tensor(name)
	if !ok {
		return nil, missing(s, name)
	}
	if !slices.Equal(t.Shape, []int{n}) {
		return nil, badShape(s, name, t.Shape, []int{n})
	}
	switch t.DType {
	case safetensors.F32:
		return floats(t.Data, 4, "F32"), nil
	case safetensors.F16:
		return floats(t.Data, 2, "F16"), nil
	case safetensors.BF16:
		return floats(t.Data, 2, "BF16"), nil
	}
	return nil, fmt.Errorf("%w: %s: tensor %s has type %v", ErrUnsupported, t.File, name, t.DType)
}
