package model

import (
	"fmt"
	"math"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
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
	// Enc holds an encoder's embeddings, nil for a decoder.
	Enc *Encoder
	// Head is a reranker's classification head, nil without.
	Head *Head
	// Dense holds the projections applied to a pooled embedding, in
	// order (Project), nil without.
	Dense []*kernels.Matrix

	// Per-layer inputs (Gemma 4), nil without: a second embedding of
	// PerLayerInput values per layer, and the projection of the embedding
	// added to it, normalised by PLNorm.
	PLEmbed, PLProj *kernels.Matrix
	PLNorm          []float32

	// MTP is the input stage of a multi-token prediction layer built by
	// BuildMTP, nil for other models.
	MTP *MTPHead

	kvShapes   []kvcache.Shape // what each cache layer holds
	kvLayer    []int           // the cache layer of each layer's keys and values, -1 for linear layers
	stateElems int             // floats of a sequence's recurrent state (linear layers)
	tiledHeads bool            // linear layers\' value head h reads key head h mod key heads (Family.GGUFTiledHeads)
	rope       ropeTable       // global layers
	ropeLong   *ropeTable      // LongRoPE's long factors, or nil
	ropeLocal  *ropeTable      // sliding-window layers with their own base, or nil
	attnScale  float32         // scores are q·k times this
	// plProjScale and plEmbedScale multiply the projection of the
	// embedding and the second embedding of the per-layer inputs.
	plProjScale, plEmbedScale float32
	embedScale                float32 // embeddings are multiplied by this, 0 for none
	weights                   int64
}

// WeightBytes returns the size of the weights the model uses (the shared
// embedding counted once).
func (m *Model) WeightBytes() int64 { return m.weights }

// Params returns the number of parameters of the weights.
func (m *Model) Params() int64 { return m.params(false) }

// ActiveParams returns the number of parameters a token uses: Params less
// the experts it is not routed to.
func (m *Model) ActiveParams() int64 { return m.params(true) }

// params counts the parameters, of only the experts a token uses if active.
func (m *Model) params(active bool) int64 {
	c := m.Config
	n := int64(c.VocabSize) * int64(c.HiddenSize)
	if m.Output != nil && m.Output != m.Embed {
		n *= 2
	}
	n += int64(c.HiddenSize)
	for _, l := range m.Layers {
		for _, w := range l.Matrices() {
			if w != nil {
				n += int64(w.Rows) * int64(w.Cols)
			}
		}
		for _, v := range [...][]float32{l.AttnNorm, l.FFNNorm, l.PostAttnNorm, l.PostFFNNorm, l.QBias, l.KBias, l.VBias,
			l.QNorm, l.KNorm, l.PLPostNorm, l.OBias, l.Sinks} {
			n += int64(len(v))
		}
		if l.MoE != nil {
			n += l.MoE.params(active, c.MoE.TopK)
		}
		if d := l.Linear; d != nil {
			n += int64(len(d.Conv) + len(d.DtBias) + len(d.Decay) + len(d.Norm))
		}
	}
	for _, w := range []*kernels.Matrix{m.PLEmbed, m.PLProj} {
		if w != nil {
			n += int64(w.Rows) * int64(w.Cols)
		}
	}
	return n
}

// KVShapes returns the shape of each layer of the KV cache the model
// needs: one per layer that stores keys and values.
func (m *Model) KVShapes() []kvcache.Shape { return m.kvShapes }

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
	names := textModel(fam.HF, src)
	if cfg.Source == config.SourceGGUF {
		names, m.Rope, m.tiledHeads = fam.GGUF, fam.GGUFRope, fam.GGUFTiledHeads
	}
	b := binder{src: src, offset: m.Blocks.NormOffset && cfg.Source != config.SourceGGUF && !normsShifted(src, cfg, names)}
	if cfg.Encoder {
		b.bindEncoder(m, cfg, names)
	} else {
		b.bindAll(m, cfg, names)
	}
	if b.err != nil {
		return nil, b.err
	}
	m.stateElems = m.deltaNetState()
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
	case "", config.RopeLinear, config.RopeLlama3, config.RopeLongRope, config.RopeYarn:
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
	switch {
	case m.Blocks.AttnScale > 0:
		m.attnScale = m.Blocks.AttnScale
	case cfg.QueryPreAttnScalar > 0:
		m.attnScale = float32(1 / math.Sqrt(float64(cfg.QueryPreAttnScalar)))
	}
	if m.Blocks.EmbedScale {
		m.embedScale = dtypeScale(cfg, float64(cfg.HiddenSize))
	}
	if cfg.PerLayerInput > 0 {
		m.plProjScale = float32(1 / math.Sqrt(float64(cfg.HiddenSize)))
		m.plEmbedScale = dtypeScale(cfg, float64(cfg.PerLayerInput))
	}
	m.setupRope()
	if cfg.KVSharedLayers > 0 && (sharedSource(m, cfg.Layers-1) < 0 || sharedSource(m, cfg.Layers-cfg.KVSharedLayers) < 0) {
		return fmt.Errorf("%w: %d KV-shared layers without an earlier layer of each type to share", ErrUnsupported, cfg.KVSharedLayers)
	}
	m.kvShapes, m.kvLayer = nil, make([]int, cfg.Layers)
	for i := range cfg.Layers {
		hd, kvh, _ := cfg.LayerShape(i)
		switch {
		case cfg.LayerLinear(i):
			m.kvLayer[i] = -1
		case i < cfg.Layers-cfg.KVSharedLayers:
			m.kvLayer[i] = len(m.kvShapes)
			m.kvShapes = append(m.kvShapes, kvcache.Shape{Heads: kvh, HeadDim: hd})
		}
	}
	if len(m.kvShapes) == 0 {
		return fmt.Errorf("%w: a model without attention layers", ErrUnsupported)
	}
	return nil
}

// setupRope builds the rotary tables: the global layers' (with the long
// factors of LongRoPE beside), and the sliding-window layers' when they
// have a base or a head of their own.
func (m *Model) setupRope() {
	cfg := m.Config
	dim, hd := cfg.RopeDim, cfg.HeadDim
	if cfg.GlobalRopeDim > 0 {
		dim = cfg.GlobalRopeDim
	}
	if cfg.GlobalHeadDim > 0 {
		hd = cfg.GlobalHeadDim
	}
	m.rope = newRopeTable(cfg.RopeTheta, dim, cfg.RopeScaling, false)
	if cfg.RopeScaling.Type == config.RopeLongRope {
		long := newRopeTable(cfg.RopeTheta, dim, cfg.RopeScaling, true)
		m.ropeLong = &long
	}
	if cfg.RopeProportional {
		m.rope.proportional(cfg.RopeTheta, hd)
	}
	own := cfg.RopeLocalTheta > 0 || cfg.GlobalHeadDim > 0 || cfg.GlobalRopeDim > 0
	if cfg.SlidingWindow > 0 && own {
		theta := cfg.RopeLocalTheta
		if theta == 0 {
			theta = cfg.RopeTheta
		}
		local := newRopeTable(theta, cfg.RopeDim, config.RopeScaling{}, false)
		m.ropeLocal = &local
	}
}

// dtypeScale returns √x in the precision a Hugging Face checkpoint
// computes an embedding scale (transformers casts it to the weights'
// type); GGUF files are run as llama.cpp does, in float32.
func dtypeScale(cfg *config.Model, x float64) float32 {
	s := float32(math.Sqrt(x))
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

// tensor binds a tensor of any shape (outermost dimension first) as float32.
func (b *binder) tensor(name string, shape []int) []float32 {
	if b.err != nil {
		return nil
	}
	src, ok := b.src.(interface {
		Values(name string, shape []int) ([]float32, error)
	})
	if !ok {
		b.err = fmt.Errorf("%w: %s cannot read tensor %s of shape %v", ErrUnsupported, b.src.Where(), name, shape)
		return nil
	}
	v, err := src.Values(name, shape)
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

// WeightType names the storage type that holds most of the layers' weight
// bytes: "Q4_K", "F16", ..., or "MLX4"/"MLX8" for MLX affine weights.
func (m *Model) WeightType() string {
	bytes := map[string]int{}
	best := ""
	for _, l := range m.Layers {
		ws := l.Matrices()
		if l.MoE != nil {
			ws = l.MoE.Matrices(ws)
		}
		for _, w := range ws {
			if w == nil {
				continue
			}
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
