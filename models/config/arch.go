package config

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// SlidingRule says how a family's config turns on sliding-window attention.
type SlidingRule int

// The sliding-window rules.
const (
	NoSliding    SlidingRule = iota // the family has no sliding window
	KeySliding                      // sliding_window, with the family default when absent
	GatedSliding                    // only when use_sliding_window is true (qwen2, qwen3)
)

// Family is how the config files of one architecture family read: the names
// that select it and the defaults of its transformers config class, the
// values a config.json may leave out. The runtime's families register theirs
// (Register), so the registry is the one list of supported architectures.
type Family struct {
	Arch       string   // normalised name, Model.Arch
	HF         []string // config.json architectures entries
	ModelTypes []string // model_type values, used when architectures is absent
	GGUF       []string // GGUF general.architecture values

	Vocab, Heads int
	KVHeads      int // 0: same as heads
	HeadDim      int // 0: hidden/heads
	MaxPos       int
	Eps, Theta   float64
	LocalTheta   float64 // base of the sliding-window layers' RoPE; 0 = one base
	Tie          bool
	Act          string
	Bias         bool // q/k/v biases whatever the config says
	BOS, EOS     int  // -1: none
	Sliding      SlidingRule
	Window       int
	Pattern      int // every Pattern-th layer is global; 0 = all layers slide
	AttnCap      float64
	FinalCap     float64
	QueryPreAttn float64
	// GlobalHeadDim, PerLayerInput and PerLayerVocab are the defaults of
	// global_head_dim, hidden_size_per_layer_input and
	// vocab_size_per_layer_input (Gemma 4); 0 for families without them.
	GlobalHeadDim, PerLayerInput, PerLayerVocab int
	// OptionalMoE: some models of the family have experts on every layer,
	// which a GGUF file shows with ffn_gate_inp tensors and the expert_*
	// keys, their weights renormalised (Gemma 4's 26B-A4B).
	OptionalMoE bool
	// WideQueryLayers is the layer count of the family's GGUF files whose
	// queries llama.cpp scales by 1/√(hidden/heads) instead of 1/√head_dim
	// when the file says nothing (the Gemma 27B models); 0 = none.
	WideQueryLayers int
	// MoE holds the expert defaults of a sparse family's config class
	// (Experts > 0 marks the family sparse), and GGUFNormTopK whether
	// llama.cpp renormalises the chosen experts' weights of its GGUF files
	// when they carry no expert_weights_norm key.
	MoE          MoE
	GGUFNormTopK bool
	// AllSparse: every layer of the family is sparse, and its configs may
	// leave out intermediate_size (the experts' size stands for it).
	AllSparse bool
	// MoEFFNKey is the config key of an expert's intermediate size when
	// it is not moe_intermediate_size (gpt-oss: intermediate_size).
	MoEFFNKey string
	// DeltaNet holds the defaults of the linear-attention keys of a hybrid
	// family (Qwen3.5); nil for families without linear attention.
	DeltaNet *DeltaNet
	// Encoder marks a bidirectional encoder (BERT and its kin): LayerNorm
	// epsilons, token types, no output layer (Model.Encoder).
	Encoder bool
	// PosOffset: the Hugging Face position embeddings start at
	// pad_token_id+1 (RoBERTa); GGUF converters drop those rows.
	PosOffset bool
	// Aliases are config.json keys of the family's own naming, each read
	// as the standard key it stands for when that key is absent: pairs of
	// (alias, standard key), the first alias present winning.
	Aliases [][2]string
}

// registry holds the registered families by each name that selects them.
var registry struct {
	sync.RWMutex
	hf, types, gguf map[string]*Family
	archs           []string
}

// Register adds a family. It panics on a name that another family already
// uses or a family without an Arch, which are programming errors.
func Register(f Family) {
	registry.Lock()
	defer registry.Unlock()
	if registry.hf == nil {
		registry.hf, registry.types, registry.gguf = map[string]*Family{}, map[string]*Family{}, map[string]*Family{}
	}
	if f.Arch == "" {
		panic("config: family without an architecture name")
	}
	fam := &f
	tables := []struct {
		table map[string]*Family
		names []string
	}{{registry.hf, f.HF}, {registry.types, f.ModelTypes}, {registry.gguf, f.GGUF}}
	for _, t := range tables {
		for _, n := range t.names {
			if _, dup := t.table[n]; dup {
				panic(fmt.Sprintf("config: %q registered twice", n))
			}
		}
	}
	for _, t := range tables {
		for _, n := range t.names {
			t.table[n] = fam
		}
	}
	if !slices.Contains(registry.archs, f.Arch) {
		registry.archs = append(registry.archs, f.Arch)
		slices.Sort(registry.archs)
	}
}

// Supported returns the registered architecture families, sorted.
func Supported() []string {
	registry.RLock()
	defer registry.RUnlock()
	return slices.Clone(registry.archs)
}

// lookup returns the family registered under name in one of the tables,
// or an ErrUnsupported error that lists the table's names.
func lookup(what, name string, table func() map[string]*Family) (*Family, error) {
	registry.RLock()
	defer registry.RUnlock()
	t := table()
	if f, ok := t[name]; ok {
		return f, nil
	}
	names := make([]string, 0, len(t))
	for k := range t {
		names = append(names, k)
	}
	slices.Sort(names)
	return nil, fmt.Errorf("%w: %s %.80q (supported: %s)", ErrUnsupported, what, name, strings.Join(names, ", "))
}

func hfTable() map[string]*Family   { return registry.hf }
func typeTable() map[string]*Family { return registry.types }
func ggufTable() map[string]*Family { return registry.gguf }
