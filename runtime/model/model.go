package model

import (
	"fmt"
	"math"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/kernels"
)

// Model is a decoder-only transformer with its weights bound.
type Model struct {
	Config *config.Model
	Family *Family
	Blocks Blocks
	Rope   RopeStyle
	MLP    MLPKind

	Embed      *kernels.Matrix // [vocab, hidden]
	Output     *kernels.Matrix // [vocab, hidden]; Embed when tied
	OutputNorm []float32
	Layers     []Layer

	rope       ropeTable  // global layers
	ropeLong   *ropeTable // LongRoPE's long factors, or nil
	ropeLocal  *ropeTable // sliding-window layers with their own base, or nil
	attnScale  float32    // scores are q·k times this
	embedScale float32    // embeddings are multiplied by this, 0 for none
	weights    int64
}

// Layer is one transformer block.
type Layer struct {
	AttnNorm, FFNNorm         []float32
	PostAttnNorm, PostFFNNorm []float32 // sandwich norms, nil without
	Q, K, V, O                *kernels.Matrix
	QBias, KBias, VBias       []float32 // nil without biases
	QNorm, KNorm              []float32 // nil without q/k norms
	Gate, Up, Down            *kernels.Matrix
	Window                    int  // sliding-window size in tokens, 0 for full attention
	Local                     bool // RoPE with the sliding-window layers' base
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
		for _, v := range [...][]float32{l.AttnNorm, l.FFNNorm, l.PostAttnNorm, l.PostFFNNorm, l.QBias, l.KBias, l.VBias, l.QNorm, l.KNorm} {
			n += int64(len(v))
		}
	}
	return n
}

// Build binds the weights of src to the names of cfg's family, checking
// every shape.
func Build(cfg *config.Model, src Source) (*Model, error) {
	fam, err := Lookup(cfg.Arch)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Where(), err)
	}
	m := &Model{Config: cfg, Family: fam, Rope: RopeNeox}
	if err := m.setup(); err != nil {
		return nil, fmt.Errorf("%s: %w", src.Where(), err)
	}
	names := fam.HF
	if cfg.Source == config.SourceGGUF {
		names, m.Rope = fam.GGUF, fam.GGUFRope
	}
	b := binder{src: src, offset: m.Blocks.NormOffset && cfg.Source != config.SourceGGUF}
	b.bindAll(m, cfg, names)
	if b.err != nil {
		return nil, b.err
	}
	if err := m.releasePacked(); err != nil {
		return nil, fmt.Errorf("%s: %w", src.Where(), err)
	}
	m.weights = b.bytes
	return m, nil
}

// setup checks the config against what the forward pass implements and
// derives the family's blocks and the model-wide constants.
func (m *Model) setup() error {
	cfg := m.Config
	if cfg.RopeDim <= 0 || cfg.RopeDim > cfg.HeadDim || cfg.RopeDim%2 != 0 {
		return fmt.Errorf("%w: %d rotary dimensions for a head of %d", ErrUnsupported, cfg.RopeDim, cfg.HeadDim)
	}
	switch t := cfg.RopeScaling.Type; t {
	case "", config.RopeLinear, config.RopeLlama3, config.RopeLongRope:
	default:
		if cfg.RopeScaling.Freqs == nil {
			return fmt.Errorf("%w: RoPE scaling %q", ErrUnsupported, t)
		}
	}
	var err error
	if m.MLP, err = mlpKind(cfg.HiddenAct); err != nil {
		return err
	}
	if m.Blocks, err = m.Family.Blocks(cfg); err != nil {
		return err
	}
	m.attnScale = float32(1 / math.Sqrt(float64(cfg.HeadDim)))
	if cfg.QueryPreAttnScalar > 0 {
		m.attnScale = float32(1 / math.Sqrt(float64(cfg.QueryPreAttnScalar)))
	}
	if m.Blocks.EmbedScale {
		m.embedScale = embedScale(cfg)
	}
	m.rope = newRopeTable(cfg.RopeTheta, cfg.RopeDim, cfg.RopeScaling, false)
	if cfg.RopeScaling.Type == config.RopeLongRope {
		long := newRopeTable(cfg.RopeTheta, cfg.RopeDim, cfg.RopeScaling, true)
		m.ropeLong = &long
	}
	if cfg.RopeLocalTheta > 0 && cfg.SlidingWindow > 0 {
		local := newRopeTable(cfg.RopeLocalTheta, cfg.RopeDim, config.RopeScaling{}, false)
		m.ropeLocal = &local
	}
	return nil
}

// embedScale returns √hidden in the precision a Hugging Face checkpoint
// computes it (transformers casts it to the weights' type); GGUF files are
// run as llama.cpp does, in float32.
func embedScale(cfg *config.Model) float32 {
	s := float32(math.Sqrt(float64(cfg.HiddenSize)))
	if cfg.Source != config.SourceHF {
		return s
	}
	switch cfg.TorchDtype {
	case "bfloat16":
		return kernels.RoundBF16(s)
	case "float16":
		return kernels.RoundF16(s)
	}
	return s
}

// binder collects tensors, keeping the first error.
type binder struct {
	src    Source
	offset bool // norm weights are stored as w-1: add 1
	err    error
	bytes  int64
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

// split binds a fused matrix of cols columns as the parts of the given
// row counts, stored in dst.
func (b *binder) split(name string, cols int, rows []int, dst ...**kernels.Matrix) {
	total := 0
	for _, r := range rows {
		total += r
	}
	m := b.matrix(name, total, cols)
	if m == nil {
		return
	}
	parts, err := m.SplitRows(rows...)
	if err != nil {
		b.err = fmt.Errorf("%w: %s: %s: %w", ErrWeights, b.src.Where(), name, err)
		return
	}
	for i, p := range parts {
		*dst[i] = p
	}
}

// norm binds a norm weight, adding the (1+w) offset when the source stores w-1.
func (b *binder) norm(name string, n int) []float32 {
	v := b.vector(name, n)
	if b.offset {
		for i := range v {
			v[i]++
		}
	}
	return v
}

func (b *binder) layer(m *Model, n *Names, i int) Layer {
	cfg, bl := m.Config, m.Blocks
	hid, hd := cfg.HiddenSize, cfg.HeadDim
	qDim, kvDim := cfg.Heads*hd, cfg.KVHeads*hd
	l := Layer{
		AttnNorm: b.norm(layer(n.AttnNorm, i), hid),
		O:        b.matrix(layer(n.O, i), hid, qDim),
		FFNNorm:  b.norm(layer(n.FFNNorm, i), hid),
		Down:     b.matrix(layer(n.Down, i), hid, cfg.FFNSize),
	}
	if n.QKV != "" && b.src.Has(layer(n.QKV, i)) {
		b.split(layer(n.QKV, i), hid, []int{qDim, kvDim, kvDim}, &l.Q, &l.K, &l.V)
	} else {
		l.Q, l.K, l.V = b.matrix(layer(n.Q, i), qDim, hid), b.matrix(layer(n.K, i), kvDim, hid), b.matrix(layer(n.V, i), kvDim, hid)
	}
	if n.GateUp != "" {
		b.split(layer(n.GateUp, i), hid, []int{cfg.FFNSize, cfg.FFNSize}, &l.Gate, &l.Up)
	} else {
		l.Gate, l.Up = b.matrix(layer(n.Gate, i), cfg.FFNSize, hid), b.matrix(layer(n.Up, i), cfg.FFNSize, hid)
	}
	if bl.QKVBias || cfg.AttentionBias {
		l.QBias = b.vector(layer(n.QBias, i), qDim)
		l.KBias = b.vector(layer(n.KBias, i), kvDim)
		l.VBias = b.vector(layer(n.VBias, i), kvDim)
	}
	if bl.QKNorm {
		l.QNorm = b.norm(layer(n.QNorm, i), hd)
		l.KNorm = b.norm(layer(n.KNorm, i), hd)
	}
	if bl.PostNorms {
		l.PostAttnNorm = b.norm(layer(n.PostAttnNorm, i), hid)
		l.PostFFNNorm = b.norm(layer(n.PostFFNNorm, i), hid)
	}
	if cfg.LayerSliding(i) {
		l.Window, l.Local = cfg.SlidingWindow, m.ropeLocal != nil
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
