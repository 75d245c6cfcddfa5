package config

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/mlxrun/mlx/models/gguf"
)

// FromGGUF describes the model in a GGUF file from general.architecture, the
// {arch}.* keys, the tokenizer's special ids and the tensor list (no
// output.weight means tied embeddings; attn_q.bias means attention biases;
// rope_freqs / rope_factors_* carry RoPE scaling). The file must stay open
// during the call; the Model does not refer to it afterwards.
func FromGGUF(f *gguf.File) (*Model, error) {
	m, err := fromGGUF(f)
	if err != nil {
		return nil, fmt.Errorf("config: %s: %w", f.Path, err)
	}
	return m, nil
}

// ggufReader reads {arch}.* keys and keeps the first error.
type ggufReader struct {
	f    *gguf.File
	arch string
	err  error
}

func (g *ggufReader) fail(key, format string, args ...any) {
	if g.err == nil {
		g.err = fmt.Errorf("%w: %s: %s", ErrInvalid, key, fmt.Sprintf(format, args...))
	}
}

// uint returns the unsigned integer under arch.key, def when absent.
func (g *ggufReader) uint(key string, def int, required bool) int {
	full := g.arch + "." + key
	if _, ok := g.f.Lookup(full); !ok {
		if required {
			g.fail(full, "missing")
		}
		return def
	}
	v, ok := g.f.Uint(full)
	if !ok || v > math.MaxInt32 {
		g.fail(full, "want a non-negative integer below 2^31")
		return def
	}
	return int(v)
}

// float returns the number under arch.key, def when absent.
func (g *ggufReader) float(key string, def float64, required bool) float32 {
	full := g.arch + "." + key
	if _, ok := g.f.Lookup(full); !ok {
		if required {
			g.fail(full, "missing")
		}
		return float32(def)
	}
	v, ok := g.f.Float(full)
	if !ok {
		g.fail(full, "want a number")
	}
	return float32(v)
}

func (g *ggufReader) has(name string) bool {
	_, ok := g.f.Tensor(name)
	return ok
}

func fromGGUF(f *gguf.File) (*Model, error) {
	name, ok := f.String("general.architecture")
	if !ok {
		return nil, fmt.Errorf("%w: general.architecture missing or not a string", ErrInvalid)
	}
	fam, err := lookup("general.architecture", name, ggufTable)
	if err != nil {
		return nil, err
	}
	g := &ggufReader{f: f, arch: name}
	m := &Model{Source: SourceGGUF, Arch: fam.Arch, Architecture: name, HiddenAct: fam.Act, FileType: -1}
	m.Name, _ = f.String("general.name")
	m.HiddenSize = g.uint("embedding_length", 0, true)
	m.Layers = g.uint("block_count", 0, true)
	ffn := ggufLayerInts(g, "feed_forward_length")
	if ffn == nil {
		m.FFNSize = g.uint("feed_forward_length", 0, false)
	} else {
		m.FFNSize = int(ffn[0])
	}
	m.ContextLength = g.uint("context_length", 0, true)
	m.Heads = g.uint("attention.head_count", 0, true)
	kvHeads := ggufLayerInts(g, "attention.head_count_kv")
	if kvHeads == nil {
		m.KVHeads = g.uint("attention.head_count_kv", m.Heads, false)
	}
	headDim := 0
	if m.Heads > 0 && m.HiddenSize%m.Heads == 0 {
		headDim = m.HiddenSize / m.Heads
	}
	m.HeadDim = g.uint("attention.key_length", headDim, false)
	m.RopeDim = g.uint("rope.dimension_count", m.HeadDim, false)
	m.VocabSize = g.uint("vocab_size", tokenCount(f), false)
	if fam.Encoder {
		ggufEncoder(g, m)
	} else {
		m.RMSNormEps = g.float("attention.layer_norm_rms_epsilon", 0, true)
	}
	m.RopeTheta = g.float("rope.freq_base", fam.Theta, false)
	if fam.LocalTheta != 0 {
		m.RopeLocalTheta = g.float("rope.freq_base_swa", fam.LocalTheta, false)
	}
	m.TieEmbeddings = !g.has("output.weight")
	m.AttentionBias = fam.Bias || g.has("blk.0.attn_q.bias") || g.has("blk.0.attn_qkv.bias")
	ggufGemma(g, fam, m)
	ggufDeltaNet(g, fam, m)
	ggufGlobal(g, m, kvHeads)
	m.MoE = ggufMoE(g, fam)
	if m.MoE.Experts == 0 && g.has("blk.0.ffn_gate_inp.weight") {
		if fam.OptionalMoE {
			m.MoE = ggufExperts(g)
		} else {
			// A family read without experts would run such a file as its
			// dense part alone.
			g.err = cmp.Or(g.err, fmt.Errorf("%w: %s with experts (blk.0.ffn_gate_inp.weight)", ErrUnsupported, g.arch))
		}
	}
	ggufFFN(g, m, ffn)
	if m.FFNSize == 0 && (fam.OptionalMoE || !m.allSparse()) {
		// Only a model whose every layer is a mixture of experts has no
		// MLP of its own, and llama.cpp reads no size for it then.
		g.fail(g.arch+".feed_forward_length", "missing")
	}
	m.Pooling = ggufPooling(g)
	m.DenseSize = g.uint("dense_2_feat_out", 0, false)
	m.Labels = ggufLabels(g)
	m.BOS, m.EOS = ggufTokens(f, m.VocabSize)
	if v, ok := f.Uint("general.file_type"); ok && v <= math.MaxInt32 {
		m.FileType = int(v)
	}
	if g.err != nil {
		return nil, g.err
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	dim := m.RopeDim
	if m.GlobalRopeDim > 0 {
		dim = m.GlobalRopeDim // the scaling is the full-attention layers'
	}
	rope, err := ggufRope(g, dim, m.ContextLength)
	if err != nil {
		return nil, err
	}
	m.RopeScaling = ggufProportional(m, rope)
	return m, m.Validate()
}

// ggufGemma reads the sliding window and the gemma-specific values.
func ggufGemma(g *ggufReader, fam *Family, m *Model) {
	window := 0
	if fam.Pattern > 0 {
		window = fam.Window
	}
	if fam.Sliding != NoSliding {
		m.SlidingWindow = g.uint("attention.sliding_window", window, false)
	}
	if fam.Pattern == 0 {
		return
	}
	m.SlidingPattern = fam.Pattern
	if v, ok := g.f.Uint(g.arch + ".attention.sliding_window_pattern"); ok && v <= maxLayers {
		m.SlidingPattern = int(v)
	}
	m.AttnSoftcap = g.float("attn_logit_softcapping", fam.AttnCap, false)
	m.FinalSoftcap = g.float("final_logit_softcapping", fam.FinalCap, false)
	// llama.cpp scales gemma queries by 1/sqrt(head_dim), except for the 27B
	// models, which use 1/sqrt(hidden/heads), as their query_pre_attn_scalar
	// says.
	m.QueryPreAttnScalar = float32(m.HeadDim)
	if scale := g.float("attention.scale", 0, false); scale > 0 {
		m.QueryPreAttnScalar = 1 / (scale * scale)
	} else if fam.WideQueryLayers > 0 && m.Layers == fam.WideQueryLayers {
		m.QueryPreAttnScalar = float32(m.HiddenSize / max(m.Heads, 1))
	}
}

// tokenCount returns the length of the token list, 0 when absent.
func tokenCount(f *gguf.File) int {
	v, ok := f.Lookup("tokenizer.ggml.tokens")
	if !ok {
		return 0
	}
	return v.Len()
}

// ggufTokens returns the BOS id (-1 if none) and the ids that end
// generation: EOS, then EOT and EOM when they differ. An id outside the
// vocabulary counts as absent, as llama.cpp reads it (it warns and keeps
// its default), so a file with a stray id still loads.
func ggufTokens(f *gguf.File, vocab int) (bos int, eos []int) {
	bos = -1
	if v, ok := f.Uint("tokenizer.ggml.bos_token_id"); ok && v < uint64(vocab) {
		bos = int(v)
	}
	for _, key := range []string{"tokenizer.ggml.eos_token_id", "tokenizer.ggml.eot_token_id", "tokenizer.ggml.eom_token_id"} {
		if v, ok := f.Uint(key); ok && v < uint64(vocab) && !slices.Contains(eos, int(v)) {
			eos = append(eos, int(v))
		}
	}
	return bos, eos
}

// ggufRope reads the RoPE scaling keys and factor tensors. ropeDim has been
// validated.
func ggufRope(g *ggufReader, ropeDim, context int) (RopeScaling, error) {
	typ := ""
	if v, ok := g.f.String(g.arch + ".rope.scaling.type"); ok && v != "none" {
		typ = v
	}
	s := RopeScaling{
		Type:            typ,
		Factor:          g.float("rope.scaling.factor", 0, false),
		OriginalContext: g.uint("rope.scaling.original_context_length", 0, false),
		AttnFactor:      g.float("rope.scaling.attn_factor", 0, false),
	}
	if (typ == RopeLinear || typ == RopeYarn) && s.Factor == 0 {
		// llama.cpp reads a missing factor as 1, which scales nothing.
		typ, s.Type = "", ""
	}
	if lin := g.float("rope.scale_linear", 0, false); typ == "" && lin > 0 && lin != 1 {
		s.Type, s.Factor = RopeLinear, lin
	}
	var err error
	switch {
	case g.has("rope_freqs.weight"):
		s.Type = RopeLlama3
		s.Freqs, err = ggufFactors(g.f, "rope_freqs.weight", ropeDim/2)
	case typ == RopeLongRope || g.has("rope_factors_long.weight"):
		s.Type = RopeLongRope
		if s.LongFactor, err = ggufFactors(g.f, "rope_factors_long.weight", ropeDim/2); err == nil {
			s.ShortFactor, err = ggufFactors(g.f, "rope_factors_short.weight", ropeDim/2)
		}
		if s.OriginalContext > 0 {
			s.Factor = float32(context) / float32(s.OriginalContext)
		}
	case typ == RopeYarn:
		s.BetaFast = g.float("rope.scaling.yarn_beta_fast", 32, false)
		s.BetaSlow = g.float("rope.scaling.yarn_beta_slow", 1, false)
		// llama.cpp takes the training context for a missing original
		// one, and multiplies YaRN's own attention factor by the file's,
		// where AttnFactor replaces it.
		if s.OriginalContext == 0 {
			s.OriginalContext = context
		}
		if s.AttnFactor > 0 && s.Factor > 1 {
			s.AttnFactor *= float32(1 + 0.1*math.Log(float64(s.Factor)))
		}
	case typ != "" && typ != RopeLinear:
		err = fmt.Errorf("%w: %s.rope.scaling.type %.80q (supported: linear, yarn, longrope)", ErrUnsupported, g.arch, typ)
	}
	if g.err != nil {
		return RopeScaling{}, g.err
	}
	return s, err
}

// ggufFactors reads an F32 vector of n values.
func ggufFactors(f *gguf.File, name string, n int) ([]float32, error) {
	t, ok := f.Tensor(name)
	if !ok {
		return nil, fmt.Errorf("%w: tensor %s missing", ErrInvalid, name)
	}
	data := f.TensorData(t)
	if t.Type != gguf.TypeF32 || t.Elements() != uint64(n) || len(data) != 4*n {
		return nil, fmt.Errorf("%w: tensor %s: want %d F32 values, got %d of %s", ErrInvalid, name, n, t.Elements(), t.Type)
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return out, nil
}
