package config

import "fmt"

// Bounds on a model's values. They are far above any published model and
// keep a hostile config from making the runtime allocate without limit.
const (
	maxVocab      = 1 << 22
	maxHidden     = 1 << 17
	maxLayers     = 1 << 10
	maxHeads      = 1 << 10
	maxRopeDim    = 1 << 11 // also the largest head dimension
	maxFFN        = 1 << 20
	maxContext    = 1 << 24
	maxRopeFactor = 1 << 16
	maxTheta      = 1e12
	maxTokenIDs   = 1 << 10
	maxTypes      = 1 << 10 // token types of an encoder
	maxLabels     = 1 << 16 // outputs of a classification head
	// maxKVPerToken bounds the K and V elements cached per token over all layers.
	maxKVPerToken = 1 << 24
)

// Validate checks that every value is in range and consistent: positive
// sizes, heads divisible by KV heads, token ids inside the vocabulary, and
// so on. FromHFJSON and FromGGUF call it before returning.
func (m *Model) Validate() error {
	ffnMin := 1 // a model whose every layer is sparse may have no MLP of its own
	if m.allSparse() {
		ffnMin = 0
	}
	ints := []intRange{
		{"vocab size", m.VocabSize, 1, maxVocab},
		{"hidden size", m.HiddenSize, 1, maxHidden},
		{"layers", m.Layers, 1, maxLayers},
		{"attention heads", m.Heads, 1, maxHeads},
		{"KV heads", m.KVHeads, 1, m.Heads},
		{"head dimension", m.HeadDim, 1, maxRopeDim},
		{"rotary dimensions", m.RopeDim, 0, m.HeadDim},
		{"feed-forward size", m.FFNSize, ffnMin, maxFFN},
		{"context length", m.ContextLength, 1, maxContext},
		{"sliding window", m.SlidingWindow, 0, maxContext},
		{"sliding window pattern", m.SlidingPattern, 0, maxLayers},
		{"global head dimension", m.GlobalHeadDim, 0, maxRopeDim},
		{"global KV heads", m.GlobalKVHeads, 0, m.Heads},
		{"global rotary dimensions", m.GlobalRopeDim, 0, orDefault(m.GlobalHeadDim, m.HeadDim)},
		{"KV-shared layers", m.KVSharedLayers, 0, m.Layers - 1},
		{"per-layer input size", m.PerLayerInput, 0, maxHidden},
		{"per-layer input vocabulary", m.PerLayerVocab, 0, maxVocab},
		{"token types", m.TypeVocab, 0, maxTypes},
		{"classifier labels", m.Labels, 0, maxLabels},
		{"dense size", m.DenseSize, 0, maxFFN},
	}
	if err := checkRanges(ints); err != nil {
		return err
	}
	if m.GlobalKVHeads > 0 && m.Heads%m.GlobalKVHeads != 0 {
		return fmt.Errorf("%w: %d attention heads are not a multiple of %d global KV heads", ErrInvalid, m.Heads, m.GlobalKVHeads)
	}
	if m.Heads%m.KVHeads != 0 {
		return fmt.Errorf("%w: %d attention heads are not a multiple of %d KV heads", ErrInvalid, m.Heads, m.KVHeads)
	}
	if m.RopeDim%2 != 0 || m.GlobalRopeDim%2 != 0 {
		return fmt.Errorf("%w: rotary dimensions %d and %d (full attention) must be even", ErrInvalid, m.RopeDim, m.GlobalRopeDim)
	}
	if kv := 2 * m.Layers * max(m.KVHeads, m.GlobalKVHeads) * max(m.HeadDim, m.GlobalHeadDim); kv > maxKVPerToken {
		return fmt.Errorf("%w: %d KV cache elements per token exceed %d", ErrInvalid, kv, maxKVPerToken)
	}
	floats := []struct {
		name       string
		v          float32
		lo, hi     float64
		zeroIsNone bool
	}{
		{"rms_norm_eps", m.RMSNormEps, 1e-13, 1, false},
		{"rope theta", m.RopeTheta, 1, maxTheta, false},
		{"local rope theta", m.RopeLocalTheta, 1, maxTheta, true},
		{"attention softcap", m.AttnSoftcap, 1e-3, 1e6, true},
		{"final softcap", m.FinalSoftcap, 1e-3, 1e6, true},
		{"query_pre_attn_scalar", m.QueryPreAttnScalar, 1e-3, 1e9, true},
	}
	for _, c := range floats {
		if !(c.zeroIsNone && c.v == 0) && !finiteIn(float64(c.v), c.lo, c.hi) {
			return fmt.Errorf("%w: %s %v out of range [%g, %g]", ErrInvalid, c.name, c.v, c.lo, c.hi)
		}
	}
	ropeDim := m.RopeDim
	if m.GlobalRopeDim > 0 {
		ropeDim = m.GlobalRopeDim // the scaling is the full-attention layers'
	}
	if err := m.RopeScaling.validate(ropeDim); err != nil {
		return err
	}
	if err := m.MoE.validate(m.Layers); err != nil {
		return err
	}
	if err := m.DeltaNet.validate(m.Layers); err != nil {
		return err
	}
	if err := m.validateTokens(); err != nil {
		return err
	}
	return m.Quantization.validate()
}

// intRange is a value and the range it must be in.
type intRange struct {
	name      string
	v, lo, hi int
}

// checkRanges returns an error naming the first value out of its range.
func checkRanges(rs []intRange) error {
	for _, r := range rs {
		if r.v < r.lo || r.v > r.hi {
			return fmt.Errorf("%w: %s %d out of range [%d, %d]", ErrInvalid, r.name, r.v, r.lo, r.hi)
		}
	}
	return nil
}

// validateTokens checks that BOS and EOS ids are inside the vocabulary.
func (m *Model) validateTokens() error {
	if m.BOS < -1 || m.BOS >= m.VocabSize {
		return fmt.Errorf("%w: bos token id %d outside the vocabulary of %d", ErrInvalid, m.BOS, m.VocabSize)
	}
	if len(m.EOS) > maxTokenIDs {
		return fmt.Errorf("%w: %d eos token ids, more than %d", ErrInvalid, len(m.EOS), maxTokenIDs)
	}
	for _, id := range m.EOS {
		if id < 0 || id >= m.VocabSize {
			return fmt.Errorf("%w: eos token id %d outside the vocabulary of %d", ErrInvalid, id, m.VocabSize)
		}
	}
	return nil
}

// validate checks bits and group size; nil means no quantization.
func (q *Quantization) validate() error {
	if q == nil {
		return nil
	}
	if q.Bits < 1 || q.Bits > 8 || q.GroupSize < 1 || q.GroupSize > 1<<12 || q.Mode == "" {
		return fmt.Errorf("%w: quantization bits %d, group size %d, mode %.80q (want 1-8 bits, a group of 1-4096, a mode)",
			ErrInvalid, q.Bits, q.GroupSize, q.Mode)
	}
	return nil
}
