package model

import (
	"fmt"
	"math"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// Head is the classification head of a reranker, applied to a pooled
// hidden state: a cross-encoder's (bge-reranker: a dense layer with tanh,
// then the labels) or a decoder's (Qwen3-Reranker: the rows of "yes" and
// "no" of its output matrix).
type Head struct {
	// Cls and ClsBias are the dense layer, nil when the head projects the
	// state directly; ClsOut and ClsOutBias give the scores of the
	// labels (ClsOutBias nil without).
	Cls, ClsOut         *kernels.Matrix
	ClsBias, ClsOutBias []float32
}

// Labels returns the number of scores of the classification head, 0 when
// the model has none.
func (m *Model) Labels() int {
	if m.Head == nil || m.Head.ClsOut == nil {
		return 0
	}
	return m.Head.ClsOut.Rows
}

// Classify returns the scores of the classification head for a pooled
// hidden state h (Head.Scores).
func (m *Model) Classify(h []float32) ([]float32, error) {
	if m.Labels() == 0 {
		return nil, fmt.Errorf("%w: the model has no classification head", ErrUnsupported)
	}
	if len(h) != m.Config.HiddenSize {
		return nil, fmt.Errorf("%w: a state of %d values for a hidden size of %d", ErrBatch, len(h), m.Config.HiddenSize)
	}
	return m.Head.Scores(h), nil
}

// Scores returns the score of each label for a pooled hidden state x of
// the hidden size: ClsOut·tanh(Cls·x + ClsBias) + ClsOutBias, or
// ClsOut·x + ClsOutBias for a head without a dense layer.
func (h *Head) Scores(x []float32) []float32 {
	if h.Cls != nil {
		x = matVec(h.Cls, x, h.ClsBias)
		for i, v := range x {
			x[i] = float32(math.Tanh(float64(v)))
		}
	}
	return matVec(h.ClsOut, x, h.ClsOutBias)
}

// matVec returns w·x + bias (a nil bias adds nothing), row by row, with
// x rounded as the matmuls of w round it (kernels.Matrix.HalfActs).
func matVec(w *kernels.Matrix, x, bias []float32) []float32 {
	out := make([]float32, w.Rows)
	row := make([]float32, w.Cols)
	x = w.RoundedInput(x)
	for r := range out {
		w.Row(r, row)
		var s float64
		for i, v := range row {
			s += float64(v) * float64(x[i])
		}
		out[r] = float32(s)
	}
	if bias != nil {
		kernels.Add(out, bias)
	}
	return out
}

// head binds the classification head of n: cfg.Labels rows of ClsOut, the
// dense layer Cls when the file has it, and their biases when it has them.
func (b *binder) head(n *Names, cfg *config.Model) *Head {
	hid := cfg.HiddenSize
	h := &Head{}
	if n.Cls != "" && b.src.Has(n.Cls) {
		h.Cls, h.ClsBias = b.matrix(n.Cls, hid, hid), b.optional(n.ClsBias, hid)
	}
	h.ClsOut, h.ClsOutBias = b.matrix(n.ClsOut, cfg.Labels, hid), b.optional(n.ClsOutBias, cfg.Labels)
	return h
}
