package info

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mlxrun/mlx/models/bounded"
	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/safetensors"
)

// maxConfig bounds the config.json read for an unsupported architecture.
const maxConfig = 16 << 20

// loadHF describes a Hugging Face model folder: config.json and safetensors
// weights (an MLX folder is one too).
func loadHF(dir string) (*Info, error) {
	in := &Info{Format: FormatSafetensors, TensorTypes: map[string]int{}}
	var q *MLXQuant
	m, err := config.FromHFDir(dir)
	switch {
	case err == nil:
		in.setModel(m)
		if m.Quantization != nil {
			q = &MLXQuant{Bits: m.Quantization.Bits, GroupSize: m.Quantization.GroupSize, Mode: m.Quantization.Mode}
		}
	case errors.Is(err, config.ErrUnsupported):
		in.warn("%v", err)
		if q, err = in.hfRaw(dir); err != nil {
			return nil, err
		}
	default:
		return nil, err
	}
	st, err := safetensors.OpenDir(dir)
	switch {
	case errors.Is(err, safetensors.ErrNotFound):
		in.warn("no weights: %v", err)
	case err != nil:
		return nil, err
	default:
		defer st.Close()
		if st.Metadata()["format"] == "mlx" {
			in.Format = FormatMLX
		}
		if elems := in.countSafetensors(st, q); in.Quantization == "" {
			in.Quantization = dominant(elems)
		}
	}
	if q != nil && q.Bits > 0 {
		in.Format, in.MLXQuantization = FormatMLX, q
		in.Quantization = fmt.Sprintf("MLX %d-bit, group %d", q.Bits, q.GroupSize)
		if q.Mode != "" && q.Mode != "affine" {
			in.Quantization += ", " + q.Mode
		}
	}
	if g, err := config.LoadGeneration(dir); err != nil {
		in.warn("generation defaults: %v", err)
	} else {
		in.Generation = generationOf(g)
	}
	in.License, in.LicenseOrigin = folderLicense(dir)
	if in.Files, err = listFiles(dir); err != nil {
		return nil, err
	}
	return in, nil
}

// countSafetensors counts the parameters and the tensors by type, and returns
// the elements of each type. A weight MLX packed into U32 words (it has
// .scales beside it) counts as its unpacked size; its scales and biases are
// not parameters of the model.
func (in *Info) countSafetensors(st *safetensors.Model, q *MLXQuant) map[string]int64 {
	elems := map[string]int64{}
	packed := map[string]bool{}
	if q != nil && q.Bits > 0 && q.Bits <= 32 {
		for _, name := range st.Names() {
			base, ok := strings.CutSuffix(name, ".weight")
			t, _ := st.Tensor(name)
			if _, scaled := st.Tensor(base + ".scales"); ok && scaled && t.DType == safetensors.U32 {
				packed[base] = true
			}
		}
	}
	for _, name := range st.Names() {
		t, _ := st.Tensor(name)
		in.TensorTypes[t.DType.String()]++
		n := int64(t.Elements())
		base := name
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			base = name[:i]
		}
		switch {
		case packed[base] && strings.HasSuffix(name, ".weight"):
			n = n * 32 / int64(q.Bits)
		case packed[base]:
			continue // .scales, .biases
		default:
			elems[t.DType.String()] = addSat(elems[t.DType.String()], n)
		}
		in.Parameters = addSat(in.Parameters, n)
		in.countExpertTensor(name, n)
	}
	return elems
}

// rawConfig holds the config.json keys shown for an architecture the config
// package does not support.
type rawConfig struct {
	Architectures      []string   `json:"architectures"`
	ModelType          string     `json:"model_type"`
	HiddenSize         int        `json:"hidden_size"`
	Layers             int        `json:"num_hidden_layers"`
	Heads              int        `json:"num_attention_heads"`
	KVHeads            int        `json:"num_key_value_heads"`
	HeadDim            int        `json:"head_dim"`
	FFN                int        `json:"intermediate_size"`
	Context            int        `json:"max_position_embeddings"`
	Vocab              int        `json:"vocab_size"`
	RopeTheta          float32    `json:"rope_theta"`
	Experts            int        `json:"num_experts"`
	LocalExperts       int        `json:"num_local_experts"`
	ExpertsPerToken    int        `json:"num_experts_per_tok"`
	ExpertFFN          int        `json:"moe_intermediate_size"`
	SharedExpertFFN    int        `json:"shared_expert_intermediate_size"`
	TextConfig         *rawConfig `json:"text_config"`
	Quantization       *rawQuant  `json:"quantization"`
	QuantizationConfig *rawQuant  `json:"quantization_config"`
}

type rawQuant struct {
	Bits      int    `json:"bits"`
	GroupSize int    `json:"group_size"`
	Mode      string `json:"mode"`
	Method    string `json:"quant_method"`
}

// hfRaw fills in what config.json says of a model whose architecture the
// config package does not support, and returns its MLX quantization.
func (in *Info) hfRaw(dir string) (*MLXQuant, error) {
	path := filepath.Join(dir, "config.json")
	data, err := readLimited(path, maxConfig)
	if err != nil {
		return nil, err
	}
	var c rawConfig
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrNotModel, path, err)
	}
	top := c
	if c.HiddenSize == 0 && c.TextConfig != nil {
		c = *c.TextConfig
	}
	in.Architecture = top.ModelType
	if len(top.Architectures) > 0 {
		in.ArchitectureName = top.Architectures[0]
	}
	in.ContextLength, in.EmbeddingLength, in.FeedForwardLength = c.Context, c.HiddenSize, c.FFN
	in.Layers, in.Heads, in.KVHeads, in.HeadDim = c.Layers, c.Heads, c.KVHeads, c.HeadDim
	in.VocabSize, in.RopeTheta = c.Vocab, c.RopeTheta
	if n := max(c.Experts, c.LocalExperts); n > 0 {
		in.Experts = &Experts{Count: n, Used: c.ExpertsPerToken, FFNLength: c.ExpertFFN, SharedFFNLength: c.SharedExpertFFN}
	}
	q := top.Quantization
	if q == nil {
		q = top.QuantizationConfig
	}
	switch {
	case q == nil:
		return nil, nil
	case q.Method != "":
		in.Quantization = q.Method
		if q.Bits > 0 {
			in.Quantization += fmt.Sprintf(" %d-bit", q.Bits)
		}
		return nil, nil
	}
	return &MLXQuant{Bits: q.Bits, GroupSize: q.GroupSize, Mode: q.Mode}, nil
}

// readLimited reads a file of at most limit bytes.
func readLimited(path string, limit int64) ([]byte, error) {
	data, err := bounded.ReadFile(path, limit)
	if errors.Is(err, bounded.ErrTooLarge) {
		return nil, fmt.Errorf("%w: %w", ErrNotModel, err)
	}
	return data, err
}
