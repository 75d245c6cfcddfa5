package model_test

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/safetensors"
	"github.com/mlxrun/mlx/runtime/model"
)

// mlxLayout presents a Qwen3.5 checkpoint as mlx-lm converts it: each
// convolution weight [channels, 1, kernel] as [channels, kernel, 1] (the
// same values in the same order), and the (1+w) RMSNorm weights of the
// decoder stored shifted, as 1+w, in F32. The gated norm of the linear
// layers keeps its plain weight.
type mlxLayout struct{ st model.Tensors }

func (m mlxLayout) Tensor(name string) (*safetensors.Tensor, bool) {
	t, ok := m.st.Tensor(name)
	if !ok {
		return nil, false
	}
	c := *t
	switch {
	case strings.HasSuffix(name, "conv1d.weight"):
		c.Shape = []int{t.Shape[0], t.Shape[2], t.Shape[1]}
	case strings.HasSuffix(name, "norm.weight") && !strings.Contains(name, "linear_attn"):
		c.DType, c.Data = safetensors.F32, make([]byte, 4*t.Elements())
		for i := range t.Elements() {
			w := math.Float32frombits(uint32(binary.LittleEndian.Uint16(t.Data[2*i:])) << 16) // BF16
			binary.LittleEndian.PutUint32(c.Data[4*i:], math.Float32bits(1+w))
		}
	}
	return &c, true
}

// TestDeltaNetMLXLayout binds the trained Qwen3.5 model from its tensors
// in mlx-lm's layout (what MLX conversions of Qwen3.5 checkpoints hold),
// with the logits of transformers' layout. Before, the convolution's shape
// was refused.
func TestDeltaNetMLXLayout(t *testing.T) {
	h := loadHybrid(t)
	src := hybridSource(t)
	h.sameLogits(t, "MLX layout", buildHybrid(t, h.m.Config, model.SafetensorsSource{M: mlxLayout{src.M}, Dir: src.Dir}))
}
