// Package info describes a model for a person: architecture and sizes, the
// parameter count (from the tensor shapes), quantization, chat template,
// license, generation defaults and files. It reads a GGUF file or a Hugging
// Face model folder (safetensors, MLX too) through the other models packages
// and never loads the weights themselves.
package info

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/models/config"
)

// ErrNotModel reports a path that holds no model this package can read.
var ErrNotModel = errors.New("not a model")

// Formats of the weights.
const (
	FormatGGUF        = "gguf"
	FormatSafetensors = "safetensors"
	FormatMLX         = "mlx" // safetensors written by MLX, usually quantized
)

// Info is what a person needs to know about a model. The JSON keys are
// stable; a value that is unknown is zero or empty.
type Info struct {
	Path             string `json:"path"`
	Format           string `json:"format"`            // FormatGGUF, FormatSafetensors or FormatMLX
	Architecture     string `json:"architecture"`      // family: llama, qwen3, ...
	ArchitectureName string `json:"architecture_name"` // as written: LlamaForCausalLM, or GGUF general.architecture
	Name             string `json:"name"`              // GGUF general.name
	Parameters       int64  `json:"parameters"`        // counted from the tensor shapes
	ParameterSize    string `json:"parameter_size"`    // Parameters for a person: "135M"
	// ActiveParameters counts, for a mixture of experts, the parameters
	// one token uses: the routed experts' share counted Experts.Used times
	// out of Experts.Count. 0 for a dense model.
	ActiveParameters    int64          `json:"active_parameters"`
	ActiveParameterSize string         `json:"active_parameter_size"`
	Experts             *Experts       `json:"experts"`          // nil for a dense model
	Quantization        string         `json:"quantization"`     // "Q8_0", "BF16", "MLX 4-bit, group 64"
	MLXQuantization     *MLXQuant      `json:"mlx_quantization"` // nil unless MLX-quantized
	Tensors             int            `json:"tensors"`
	TensorTypes         map[string]int `json:"tensor_types"` // tensors per stored type ("Q8_0", "F32", "U32")
	ContextLength       int            `json:"context_length"`
	EmbeddingLength     int            `json:"embedding_length"`
	FeedForwardLength   int            `json:"feed_forward_length"`
	Layers              int            `json:"layers"`
	Heads               int            `json:"heads"`
	KVHeads             int            `json:"kv_heads"`
	HeadDim             int            `json:"head_dim"`
	VocabSize           int            `json:"vocab_size"`
	RopeTheta           float32        `json:"rope_theta"`
	ChatTemplate        string         `json:"chat_template"`
	TemplateOrigin      string         `json:"chat_template_origin"` // file (and key) relative to the model
	License             string         `json:"license"`              // an SPDX id, or the first line of a LICENSE file
	LicenseOrigin       string         `json:"license_origin"`       // general.license, README.md or LICENSE
	Generation          Generation     `json:"generation"`
	Files               []File         `json:"files"`
	Size                int64          `json:"size"`      // bytes of Files
	Supported           bool           `json:"supported"` // the runtime knows the architecture
	Warnings            []string       `json:"warnings"`  // what could not be read, and why
	first               string         // the first file of a split GGUF, which holds the metadata
	expertParams        int64          // the parameters of the routed experts' tensors
	sharedExpert        bool           // a tensor of a shared expert was seen
}

// MLXQuant is MLX's affine quantization: groups of GroupSize weights share a
// scale and a bias, each weight stored in Bits bits.
type MLXQuant struct {
	Bits      int    `json:"bits"`
	GroupSize int    `json:"group_size"`
	Mode      string `json:"mode"`
}

// File is one file of a model.
type File struct {
	Name string `json:"name"` // relative to the model folder, with '/'
	Size int64  `json:"size"`
}

// Load describes the model at path: a .gguf file (the first of a split set
// brings in the others), or a folder holding config.json with safetensors
// weights, or a single GGUF model.
func Load(path string) (*Info, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var in *Info
	switch {
	case !st.IsDir() && isGGUF(path):
		in, err = loadGGUF(path)
	case !st.IsDir():
		return nil, fmt.Errorf("%w: %s is neither a .gguf file nor a model folder", ErrNotModel, path)
	case fileExists(filepath.Join(path, "config.json")):
		in, err = loadHF(path)
	default:
		var g string
		if g, err = folderGGUF(path); err == nil {
			in, err = loadGGUF(g)
		}
	}
	if err != nil {
		return nil, err
	}
	in.Path = path
	in.ParameterSize = HumanCount(in.Parameters)
	in.Tensors = 0
	for _, n := range in.TensorTypes {
		in.Tensors += n
	}
	for _, f := range in.Files {
		in.Size += f.Size
	}
	in.setActive()
	in.findTemplate(cmp.Or(in.first, path))
	if in.Warnings == nil {
		in.Warnings = []string{}
	}
	return in, nil
}

// findTemplate fills in the chat template the chat package would use.
func (in *Info) findTemplate(path string) {
	text, origin, err := chat.FindTemplate(path)
	switch {
	case errors.Is(err, chat.ErrNoTemplate):
		return
	case err != nil:
		in.warn("chat template: %v", err)
		return
	}
	dir := path
	if !isDir(path) {
		dir = filepath.Dir(path)
	}
	if rel, ok := strings.CutPrefix(origin, dir+string(filepath.Separator)); ok {
		origin = filepath.ToSlash(rel)
	}
	in.ChatTemplate, in.TemplateOrigin = text, origin
}

// setModel copies the sizes of a parsed config.
func (in *Info) setModel(m *config.Model) {
	in.Supported = true
	in.Architecture, in.ArchitectureName, in.Name = m.Arch, m.Architecture, m.Name
	in.ContextLength, in.EmbeddingLength, in.FeedForwardLength = m.ContextLength, m.HiddenSize, m.FFNSize
	in.Layers, in.Heads, in.KVHeads, in.HeadDim = m.Layers, m.Heads, m.KVHeads, m.HeadDim
	in.VocabSize, in.RopeTheta = m.VocabSize, m.RopeTheta
	if e := m.MoE; e.Experts > 0 {
		in.Experts = &Experts{Count: e.Experts, Used: e.TopK, FFNLength: e.FFNSize, SharedFFNLength: e.SharedFFNSize}
	}
}

func (in *Info) warn(format string, args ...any) {
	in.Warnings = append(in.Warnings, fmt.Sprintf(format, args...))
}

func isGGUF(path string) bool { return strings.EqualFold(filepath.Ext(path), ".gguf") }

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}
