package model

import (
	"math"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// DeltaNet is the weights of a Gated DeltaNet linear-attention layer: the
// token mixer of a hybrid model's linear layers in place of attention.
// Each row's q, k and v projections go through a causal depthwise
// convolution and SiLU; q and k are L2-normalised per head; a state S of
// KeyDim × ValueDim per value head decays by exp(g) and takes the delta
// rule's write of strength beta at every position; the read of S by q is
// normalised per head, gated by SiLU(z) and projected back.
type DeltaNet struct {
	QKV, Z, Beta, Alpha, Out *kernels.Matrix
	Conv                     []float32 // [kernel][channels]: tap t of every channel, the last tap on the current position
	DtBias                   []float32 // per value head, added to alpha before softplus
	Decay                    []float32 // per value head, -exp(A_log): g = Decay·softplus(alpha+DtBias)
	Norm                     []float32 // the gated RMSNorm's weight, ValueDim values
	StateOff                 int       // where the layer's state starts in a sequence's recurrent state
}

// bindDeltaNet binds the linear-attention weights of layer i.
func (b *binder) bindDeltaNet(m *Model, n *Names, i int) *DeltaNet {
	c, d := m.Config, m.Config.DeltaNet
	hid, vd, heads, conv := c.HiddenSize, d.ValueHeads*d.ValueDim, d.ValueHeads, d.ConvDim()
	l := &DeltaNet{
		QKV:    b.matrix(layer(n.LinQKV, i), conv, hid),
		Z:      b.matrix(layer(n.LinZ, i), vd, hid),
		Beta:   b.matrix(layer(n.LinBeta, i), heads, hid),
		Alpha:  b.matrix(layer(n.LinAlpha, i), heads, hid),
		Out:    b.matrix(layer(n.LinOut, i), hid, vd),
		DtBias: b.vector(layer(n.LinDtBias, i), heads),
		Decay:  b.vector(layer(n.LinDecay, i), heads),
		Norm:   b.vector(layer(n.LinNorm, i), d.ValueDim),
	}
	// The convolution weight is [channels][1][kernel] in Hugging Face
	// checkpoints, [channels][kernel][1] in MLX conversions and
	// [channels][kernel] (GGUF dims kernel, channels) in GGUF files: the
	// same order of values.
	shape := []int{conv, 1, d.ConvKernel}
	switch {
	case c.Source == config.SourceGGUF:
		shape = []int{conv, d.ConvKernel}
	case mlxConv(b.src, layer(n.LinConv, i)):
		shape = []int{conv, d.ConvKernel, 1}
	}
	w := b.tensor(layer(n.LinConv, i), shape)
	if b.err != nil {
		return nil
	}
	l.Conv = make([]float32, len(w))
	for ch := range conv {
		for t := range d.ConvKernel {
			l.Conv[t*conv+ch] = w[ch*d.ConvKernel+t]
		}
	}
	if c.Source != config.SourceGGUF {
		for h, a := range l.Decay { // A_log; GGUF files store -exp(A_log)
			l.Decay[h] = -float32(math.Exp(float64(a)))
		}
	}
	return l
}

// mlxConv reports whether a checkpoint's convolution weight of that name
// is in MLX's layout, [channels][kernel][1].
func mlxConv(src Source, name string) bool {
	st, ok := src.(SafetensorsSource)
	if !ok {
		return false
	}
	t, ok := st.M.Tensor(name)
	return ok && len(t.Shape) == 3 && t.Shape[1] > 1 && t.Shape[2] == 1
}

// normsShifted reports whether a Hugging Face directory of a hybrid model
// stores its (1+w) RMSNorm weights as 1+w: mlx-lm's conversion of Qwen3.5
// checkpoints adds the 1 once, and moves the convolution weights to MLX's
// layout, which is how such a directory is told from transformers' own.
func normsShifted(src Source, cfg *config.Model, names *Names) bool {
	for i := range cfg.Layers {
		if cfg.LayerLinear(i) {
			return mlxConv(src, layer(names.LinConv, i))
		}
	}
	return false
}

// deltaNetState lays out the recurrent state of one sequence: for each
// linear layer, ConvKernel-1 rows of conv inputs, then a ValueDim × KeyDim
// matrix per value head (S transposed: row j holds what value dimension j
// reads from the keys). It returns the floats of the whole state.
func (m *Model) deltaNetState() int {
	d := m.Config.DeltaNet
	if d == nil {
		return 0
	}
	off := 0
	for i := range m.Layers {
		if l := m.Layers[i].Linear; l != nil {
			l.StateOff = off
			off += d.StateElems()
		}
	}
	return off
}

// StateElems returns the floats of the recurrent state each sequence
// keeps beside its KV cache, 0 for a model without linear attention.
func (m *Model) StateElems() int { return m.stateElems }
