package model

import (
	"fmt"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// Model is a decoder-only transformer with its weights bound.
type Model struct {
	Config *config.Model
	Arch   Arch
	Rope   RopeStyle

	Embed      *kernels.Matrix // [vocab, hidden]
	Output     *kernels.Matrix // [vocab, hidden]; Embed when tied
	OutputNorm []float32
	Layers     []Layer

	rope    ropeTable
	weights int64
}

// Layer is one transformer block.
type Layer struct {
	AttnNorm, FFNNorm   []float32
	Q, K, V, O          *kernels.Matrix
	QBias, KBias, VBias []float32 // nil without biases
	QNorm, KNorm        []float32 // nil without q/k norms
	Gate, Up, Down      *kernels.Matrix
	Window              int // sliding-window size in tokens, 0 for full attention
}

// Matrices returns the weight matrices of the layer.
func (l *Layer) Matrices() [7]*kernels.Matrix {
	return [7]*kernels.Matrix{l.Q, l.K, l.V, l.O, l.Gate, l.Up, l.Down}
}

// WeightBytes returns the size of the weights the model uses (the shared
// embedding counted once).
func (m *Model) WeightBytes() int64 { return m.weights }

// Params returns the number of parameters of the weights.
func (m *Model) Params() int64 {
	c := m.Config
	n := int64(c.VocabSize) * int64(c.HiddenSize)
	if m.Output != m.Embed {
		n *= 2
	}
	n += int64(c.HiddenSize)
	for _, l := range m.Layers {
		for _, w := range l.Matrices() {
			n += int64(w.Rows) * int64(w.Cols)
		}
		n += int64(len(l.AttnNorm) + len(l.FFNNorm) + len(l.QBias) + len(l.KBias) + len(l.VBias) + len(l.QNorm) + len(l.KNorm))
	}
	return n
}

// Build binds the weights of src to the architecture cfg names, checking
// every shape.
func Build(cfg *config.Model, src Source) (*Model, error) {
	arch, err := Lookup(cfg.Arch)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Where(), err)
	}
	if err := check(cfg); err != nil {
		return nil, fmt.Errorf("%s: %w", src.Where(), err)
	}
	m := &Model{Config: cfg, Arch: arch, Rope: RopeNeox}
	names := arch.HF
	if cfg.Source == config.SourceGGUF {
		names, m.Rope = arch.GGUF, arch.GGUFRope
	}
	b := binder{src: src}
	b.bindAll(m, cfg, names)
	if b.err != nil {
		return nil, b.err
	}
	if err := m.releasePacked(); err != nil {
		return nil, fmt.Errorf("%s: %w", src.Where(), err)
	}
	m.weights = b.bytes
	m.rope = newRopeTable(cfg)
	return m, nil
}

// check refuses settings the forward pass does not implement.
func check(cfg *config.Model) error {
	switch {
	case cfg.HiddenAct != "" && cfg.HiddenAct != "silu":
		return fmt.Errorf("%w: activation %q (want silu)", ErrUnsupported, cfg.HiddenAct)
	case cfg.RopeDim <= 0 || cfg.RopeDim > cfg.HeadDim || cfg.RopeDim%2 != 0:
		return fmt.Errorf("%w: %d rotary dimensions for a head of %d", ErrUnsupported, cfg.RopeDim, cfg.HeadDim)
	case cfg.AttnSoftcap != 0 || cfg.FinalSoftcap != 0:
		return fmt.Errorf("%w: logit soft-capping", ErrUnsupported)
	}
	switch t := cfg.RopeScaling.Type; t {
	case "", config.RopeLinear, config.RopeLlama3:
	default:
		if cfg.RopeScaling.Freqs == nil {
			return fmt.Errorf("%w: RoPE scaling %q", ErrUnsupported, t)
		}
	}
	return nil
}

// binder collects tensors, keeping the first error.
type binder struct {
	src   Source
	err   error
	bytes int64
}

func (b *binder) matrix(name string, rows, cols int) *kernels.Matrix {
	if b.err != nil {
		return nil
	}
	m, err := b.src.Matrix(name, rows, cols)
	if err != nil {
		b.err = err
		return nil
	}
	b.bytes += int64(len(m.Data) + len(m.Scales) + len(m.Biases))
	return m
}

func (b *binder) vector(name string, n int) []float32 {
	if b.err != nil {
		return nil
	}
	v, err := b.src.Vector(name, n)
	if err != nil {
		b.err = err
		return nil
	}
	b.bytes += int64(4 * len(v))
	return v
}

func (b *binder) layer(cfg *config.Model, arch Arch, n *Names, i int) Layer {
	hid, hd := cfg.HiddenSize, cfg.HeadDim
	qDim, kvDim := cfg.Heads*hd, cfg.KVHeads*hd
	l := Layer{
		AttnNorm: b.vector(layer(n.AttnNorm, i), hid),
		Q:        b.matrix(layer(n.Q, i), qDim, hid),
		K:        b.matrix(layer(n.K, i), kvDim, hid),
		V:        b.matrix(layer(n.V, i), kvDim, hid),
		O:        b.matrix(layer(n.O, i), hid, qDim),
		FFNNorm:  b.vector(layer(n.FFNNorm, i), hid),
		Gate:     b.matrix(layer(n.Gate, i), cfg.FFNSize, hid),
		Up:       b.matrix(layer(n.Up, i), cfg.FFNSize, hid),
		Down:     b.matrix(layer(n.Down, i), hid, cfg.FFNSize),
	}
	if arch.QKVBias || cfg.AttentionBias {
		l.QBias = b.vector(layer(n.QBias, i), qDim)
		l.KBias = b.vector(layer(n.KBias, i), kvDim)
		l.VBias = b.vector(layer(n.VBias, i), kvDim)
	}
	if arch.QKNorm {
		l.QNorm = b.vector(layer(n.QNorm, i), hd)
		l.KNorm = b.vector(layer(n.KNorm, i), hd)
	}
	if cfg.LayerSliding(i) {
		l.Window = cfg.SlidingWindow
	}
	return l
}

// WeightType names the storage type that holds most of the layers' weight
// bytes: "Q4_K", "F16", ..., or "MLX4"/"MLX8" for MLX affine weights.
func (m *Model) WeightType() string {
	bytes := map[string]int{}
	best := ""
	for _, l := range m.Layers {
		for _, w := range l.Matrices() {
			name := w.Type.String()
			if w.Type == kernels.MLXAffine {
				name = fmt.Sprintf("MLX%d", w.Bits)
			}
			bytes[name] += len(w.Data)
			if best == "" || bytes[name] > bytes[best] {
				best = name
			}
		}
	}
	return best
}
