package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mlxrun/mlx/models/bounded"
)

// maxConfigSize bounds config.json and generation_config.json.
const maxConfigSize = 16 << 20

// FromHFDir reads dir/config.json.
func FromHFDir(dir string) (*Model, error) {
	path := filepath.Join(dir, "config.json")
	data, err := readFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	m, err := fromHF(data)
	if err != nil {
		return nil, fmt.Errorf("config: %s: %w", path, err)
	}
	if m.Pooling, err = sentenceTransformersPooling(dir); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return m, nil
}

// FromHFJSON reads the text of a Hugging Face config.json. Keys it leaves out
// take the defaults of the transformers config class, as transformers does;
// hidden_size, intermediate_size and num_hidden_layers are required.
// Gemma3ForConditionalGeneration's text_config is read, with the top-level
// keys (eos_token_id, quantization, ...) as fallback.
func FromHFJSON(data []byte) (*Model, error) {
	m, err := fromHF(data)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return m, nil
}

// readFile reads a file of at most maxConfigSize bytes.
func readFile(path string) ([]byte, error) {
	data, err := bounded.ReadFile(path, maxConfigSize)
	if errors.Is(err, bounded.ErrTooLarge) {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return data, err
}

func fromHF(data []byte) (*Model, error) {
	var top fields
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		return nil, fmt.Errorf("%w: not a JSON object", ErrInvalid)
	}
	r := &reader{f: top}
	fam, name, err := hfFamily(r)
	if err != nil {
		return nil, err
	}
	r.f = withAliases(r.f, fam)
	if text := r.object("text_config"); text != nil && strings.HasSuffix(name, "ForConditionalGeneration") {
		merged := maps.Clone(top)
		maps.Copy(merged, text)
		r = &reader{f: merged}
	}
	m := hfModel(r, fam, name)
	if r.err != nil {
		return nil, r.err
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if s := &m.RopeScaling; s.Type == RopeLlama3 {
		s.Freqs = Llama3Freqs(*s, m.RopeDim, m.RopeTheta)
	}
	return m, nil
}

// hfFamily picks the family from architectures, else from model_type.
func hfFamily(r *reader) (*Family, string, error) {
	var archs []string
	if r.decode("architectures", &archs, "a list of strings"); r.err != nil {
		return nil, "", r.err
	}
	for _, a := range archs {
		if fam, err := lookup("architecture", a, hfTable); err == nil {
			return fam, a, nil
		}
	}
	if len(archs) > 0 {
		_, err := lookup("architecture", archs[0], hfTable)
		return nil, "", err
	}
	mt := r.str("model_type", "")
	if r.err != nil {
		return nil, "", r.err
	}
	fam, err := lookup("model_type", mt, typeTable)
	return fam, mt, err
}

// hfModel reads the model's values; errors are left in r.
func hfModel(r *reader, fam *Family, name string) *Model {
	for _, k := range []string{"hidden_size", "num_hidden_layers", "intermediate_size"} {
		// A family whose every layer is sparse (Qwen3.5-MoE) may leave
		// out the dense MLP's size: it is the experts'.
		if !r.has(k) && (k != "intermediate_size" || !fam.AllSparse) {
			r.fail(k, "missing")
		}
	}
	m := &Model{Source: SourceHF, Arch: fam.Arch, Architecture: name, FileType: -1}
	m.HiddenSize = r.int("hidden_size", 0)
	m.Layers = r.int("num_hidden_layers", 0)
	m.FFNSize = r.int("intermediate_size", r.int("moe_intermediate_size", fam.MoE.FFNSize))
	m.VocabSize = r.int("vocab_size", fam.Vocab)
	m.Heads = r.int("num_attention_heads", fam.Heads)
	m.KVHeads = r.int("num_key_value_heads", orDefault(fam.KVHeads, m.Heads))
	m.HeadDim = r.int("head_dim", fam.HeadDim)
	if m.HeadDim == 0 && m.Heads > 0 {
		if m.HiddenSize%m.Heads != 0 {
			r.fail("hidden_size", "%d is not a multiple of num_attention_heads %d and head_dim is not given", m.HiddenSize, m.Heads)
		}
		m.HeadDim = m.HiddenSize / m.Heads
	}
	m.ContextLength = r.int("max_position_embeddings", fam.MaxPos)
	m.RMSNormEps = float32(r.float("rms_norm_eps", fam.Eps))
	m.HiddenAct = r.str("hidden_activation", r.str("hidden_act", fam.Act))
	rp, local := ropeParameters(r)
	m.RopeTheta = float32(rp.float("rope_theta", r.float("rope_theta", fam.Theta)))
	if fam.LocalTheta != 0 {
		m.RopeLocalTheta = float32(local.float("rope_theta", r.float("rope_local_base_freq", fam.LocalTheta)))
	}
	m.TieEmbeddings = r.bool("tie_word_embeddings", fam.Tie)
	m.AttentionBias = fam.Bias || r.bool("attention_bias", false)
	m.SlidingWindow, m.SlidingPattern = hfSliding(r, fam, m.Layers)
	hfGlobal(r, fam, m)
	hfDeltaNet(r, fam, m)
	partial := rp.float("partial_rotary_factor", r.float("partial_rotary_factor", 1))
	if !finiteIn(partial, 0, 1) {
		r.fail("partial_rotary_factor", "%v is not in [0, 1]", partial)
	}
	m.RopeDim = int(math.Round(float64(m.HeadDim) * partial))
	if m.GlobalHeadDim > 0 {
		// The partial factor is the full-attention layers'; the sliding
		// ones rotate their whole heads unless their entry says otherwise.
		m.RopeDim = int(math.Round(float64(m.HeadDim) * local.float("partial_rotary_factor", 1)))
		m.GlobalRopeDim = 2 * int(partial*float64(m.GlobalHeadDim)/2)
		m.RopeProportional = rp.str("rope_type", "") == "proportional"
	}
	m.AttnSoftcap = float32(r.float("attn_logit_softcapping", fam.AttnCap))
	m.FinalSoftcap = float32(r.float("final_logit_softcapping", fam.FinalCap))
	m.QueryPreAttnScalar = float32(r.float("query_pre_attn_scalar", fam.QueryPreAttn))
	m.BOS, m.EOS = inVocab(hfBOS(r, fam), hfEOS(r, fam), m.VocabSize)
	m.TorchDtype = r.str("torch_dtype", r.str("dtype", ""))
	m.Quantization = hfQuantization(r)
	m.RopeScaling = hfRope(r, rp, m)
	m.MoE = hfMoE(r, fam)
	if m.MoE.Experts == 0 && r.bool("enable_moe_block", false) {
		m.MoE = hfMoEBlock(r)
	}
	hfEncoder(r, fam, name, m)
	return m
}

// hfGlobal reads Gemma 4's keys: the full-attention layers' heads (from
// global_head_dim and num_global_key_value_heads, or per_layer_config),
// keys used as values, KV sharing and per-layer inputs. Families without
// them leave them zero.
func hfGlobal(r *reader, fam *Family, m *Model) {
	if fam.GlobalHeadDim == 0 && !r.has("global_head_dim") {
		return
	}
	m.GlobalHeadDim = r.int("global_head_dim", fam.GlobalHeadDim)
	m.GlobalKVHeads = r.int("num_global_key_value_heads", 0)
	if per := r.sub("per_layer_config"); per != nil {
		for i := range m.Layers {
			l := per.sub(fmt.Sprint(i))
			if l == nil {
				continue
			}
			hd, kv := l.int("head_dim", 0), l.int("num_key_value_heads", 0)
			switch {
			case m.LayerSliding(i) && (hd != 0 && hd != m.HeadDim || kv != 0 && kv != m.KVHeads):
				l.fail("head_dim", "a sliding-window layer's own head size or KV heads are not supported")
			case !m.LayerSliding(i) && hd != 0:
				m.GlobalHeadDim = hd
			}
			if !m.LayerSliding(i) && kv != 0 {
				m.GlobalKVHeads = kv
			}
		}
	}
	m.KEqV = r.bool("attention_k_eq_v", false)
	m.KVSharedLayers = r.int("num_kv_shared_layers", 0)
	m.DoubleWideMLP = r.bool("use_double_wide_mlp", false)
	switch {
	case r.str("use_bidirectional_attention", "") == "all":
		r.setErr(fmt.Errorf("%w: use_bidirectional_attention \"all\"", ErrUnsupported))
	}
	if !r.null("hidden_size_per_layer_input") {
		m.PerLayerInput = r.int("hidden_size_per_layer_input", fam.PerLayerInput)
		m.PerLayerVocab = r.int("vocab_size_per_layer_input", orDefault(fam.PerLayerVocab, m.VocabSize))
	}
}

// orDefault returns a unless it is zero, else b.
func orDefault(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

// inVocab drops the special ids outside the vocabulary: transformers and
// mlx-lm load such a config (the ids are never used), so it loads here too.
func inVocab(bos int, eos []int, vocab int) (int, []int) {
	if bos >= vocab {
		bos = -1
	}
	var kept []int
	for _, id := range eos {
		if id < vocab {
			kept = append(kept, id)
		}
	}
	return bos, kept
}

func hfBOS(r *reader, fam *Family) int {
	switch ids := r.ids("bos_token_id"); {
	case r.null("bos_token_id"):
		return -1
	case ids == nil:
		return fam.BOS
	case len(ids) != 1:
		r.fail("bos_token_id", "want one token id, got %d", len(ids))
		return -1
	default:
		return ids[0]
	}
}

func hfEOS(r *reader, fam *Family) []int {
	ids := r.ids("eos_token_id")
	if ids == nil && !r.null("eos_token_id") && fam.EOS >= 0 {
		ids = []int{fam.EOS}
	}
	return ids
}

// hfSliding returns the sliding window and the global-layer period.
func hfSliding(r *reader, fam *Family, layers int) (window, pattern int) {
	switch fam.Sliding {
	case NoSliding:
		return 0, 0
	case GatedSliding:
		if !r.bool("use_sliding_window", false) {
			return 0, 0
		}
	}
	if r.null("sliding_window") {
		return 0, 0
	}
	window = r.int("sliding_window", fam.Window)
	if fam.Pattern == 0 {
		return window, 0
	}
	var types []string
	if r.decode("layer_types", &types, "a list of strings") {
		return window, patternOf(r, types, layers)
	}
	return window, r.int("sliding_window_pattern", fam.Pattern)
}

// patternOf turns a layer_types list ("sliding_attention"/"full_attention")
// into the period of its full-attention layers.
func patternOf(r *reader, types []string, layers int) int {
	if len(types) != layers {
		r.fail("layer_types", "has %d entries for %d layers", len(types), layers)
		return 0
	}
	p := slices.Index(types, "full_attention") + 1
	for i, t := range types {
		full := p > 0 && (i+1)%p == 0
		if (t == "full_attention") != full || (t != "full_attention" && t != "sliding_attention") {
			r.setErr(fmt.Errorf("%w: layer_types: layer %d is %.80q, which does not follow a regular sliding/full pattern", ErrUnsupported, i, t))
			return 0
		}
	}
	return p
}

// hfQuantization reads MLX's quantization block, or quantization_config when
// it holds the same keys; gpt-oss's MXFP4, which its tensors describe,
// reads as none. Other quantization methods are refused.
func hfQuantization(r *reader) *Quantization {
	q := r.sub("quantization")
	if q == nil {
		if q = r.sub("quantization_config"); q == nil {
			return nil
		}
		if q.str("quant_method", "") == "mxfp4" {
			// The MXFP4 experts of gpt-oss checkpoints are read from
			// their own _blocks and _scales tensors; the rest is float.
			return nil
		}
		if q.has("quant_method") {
			r.setErr(fmt.Errorf("%w: quantization_config.quant_method %.80q (only MLX affine quantization is supported)",
				ErrUnsupported, q.str("quant_method", "")))
			return nil
		}
	}
	if !q.has("group_size") || !q.has("bits") {
		q.fail("group_size", "quantization needs group_size and bits")
	}
	return &Quantization{GroupSize: q.int("group_size", 0), Bits: q.int("bits", 0), Mode: q.str("mode", "affine")}
}
