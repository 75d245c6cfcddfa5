package gguf

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// modelConfig holds the config.json fields the GGUF metadata must match.
// Zero fields are not checked.
type modelConfig struct {
	Arch      string  `json:"model_type"`
	Vocab     int     `json:"vocab_size"`
	Hidden    int     `json:"hidden_size"`
	Layers    int     `json:"num_hidden_layers"`
	Heads     int     `json:"num_attention_heads"`
	KVHeads   int     `json:"num_key_value_heads"`
	HeadDim   int     `json:"head_dim"`
	FFN       int     `json:"intermediate_size"`
	Context   int     `json:"max_position_embeddings"`
	RopeTheta float64 `json:"rope_theta"`
	Eps       float64 `json:"rms_norm_eps"`
}

// k256Config is llama-k256 as the testdata README describes it (its
// Hugging Face directory is not shipped).
var k256Config = modelConfig{Arch: "llama", Vocab: 49152, Hidden: 256, Layers: 2, Heads: 4, KVHeads: 4, HeadDim: 64, FFN: 512}

// ggufFixtures lists the model files with the tensor types the testdata
// README gives for them.
var ggufFixtures = []struct {
	file  string
	model string     // directory under models/ with config.json; "" = k256Config
	embd  TensorType // type of token_embd.weight
	types map[TensorType]int
}{
	{"llama-tiny-F32", "llama-tiny", TypeF32, map[TensorType]int{TypeF32: 20}},
	{"llama-tiny-F16", "llama-tiny", TypeF16, map[TensorType]int{TypeF16: 15, TypeF32: 5}},
	{"llama-tiny-Q8_0", "llama-tiny", TypeQ8_0, map[TensorType]int{TypeQ8_0: 15, TypeF32: 5}},
	{"llama-tiny-Q4_0", "llama-tiny", TypeQ8_0, map[TensorType]int{TypeQ4_0: 14, TypeQ8_0: 1, TypeF32: 5}},
	{"qwen3-tiny-F16", "qwen3-tiny", TypeF16, map[TensorType]int{TypeF16: 15, TypeF32: 9}},
	{"qwen2-tiny-F16", "qwen2-tiny", TypeF16, map[TensorType]int{TypeF16: 15, TypeF32: 11}},
	{"llama-k256-Q4_K_M", "", TypeQ6_K, map[TensorType]int{TypeQ4_K: 12, TypeQ6_K: 3, TypeF32: 5}},
	{"llama-k256-Q6_K", "", TypeQ6_K, map[TensorType]int{TypeQ6_K: 15, TypeF32: 5}},
}

// openFixture opens a GGUF fixture file and closes it with the test.
func openFixture(t *testing.T, elem ...string) *File {
	t.Helper()
	f, err := Open(fixture.Path(t, elem...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func loadConfig(t *testing.T, model string) modelConfig {
	t.Helper()
	if model == "" {
		return k256Config
	}
	raw, err := os.ReadFile(fixture.Path(t, "models", model, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c modelConfig
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestFixtureModels(t *testing.T) {
	for _, fx := range ggufFixtures {
		t.Run(fx.file, func(t *testing.T) {
			f := openFixture(t, "gguf", fx.file+".gguf")
			cfg := loadConfig(t, fx.model)
			checkMetadata(t, f, cfg)
			checkTensors(t, f, cfg, fx.embd, fx.types)
		})
	}
}

func checkMetadata(t *testing.T, f *File, cfg modelConfig) {
	t.Helper()
	if arch, _ := f.String("general.architecture"); arch != cfg.Arch {
		t.Fatalf("general.architecture = %q, want %q", arch, cfg.Arch)
	}
	ints := map[string]int{
		"block_count": cfg.Layers, "context_length": cfg.Context, "embedding_length": cfg.Hidden,
		"feed_forward_length": cfg.FFN, "attention.head_count": cfg.Heads, "attention.head_count_kv": cfg.KVHeads,
	}
	for key, want := range ints {
		if got, ok := f.Uint(cfg.Arch + "." + key); want != 0 && (!ok || got != uint64(want)) {
			t.Errorf("%s.%s = %d, %v; want %d", cfg.Arch, key, got, ok, want)
		}
	}
	floats := map[string]float64{"rope.freq_base": cfg.RopeTheta, "attention.layer_norm_rms_epsilon": cfg.Eps}
	for key, want := range floats {
		if got, ok := f.Float(cfg.Arch + "." + key); want != 0 && (!ok || math.Abs(got-want) > 1e-6*want) {
			t.Errorf("%s.%s = %g, %v; want %g", cfg.Arch, key, got, ok, want)
		}
	}
	tokens, ok := f.Strings("tokenizer.ggml.tokens")
	if !ok || len(tokens) != cfg.Vocab {
		t.Errorf("tokenizer.ggml.tokens: %d strings, %v; want %d", len(tokens), ok, cfg.Vocab)
	}
	if merges, ok := f.Strings("tokenizer.ggml.merges"); !ok || len(merges) == 0 {
		t.Errorf("tokenizer.ggml.merges: %d, %v", len(merges), ok)
	}
}

// expectedShapes derives every tensor's ggml shape from the config.
func expectedShapes(cfg modelConfig) map[string][]uint64 {
	h, ffn := uint64(cfg.Hidden), uint64(cfg.FFN)
	hd := uint64(cfg.HeadDim)
	if hd == 0 {
		hd = h / uint64(cfg.Heads)
	}
	q, kv := uint64(cfg.Heads)*hd, uint64(cfg.KVHeads)*hd
	s := map[string][]uint64{"token_embd.weight": {h, uint64(cfg.Vocab)}, "output_norm.weight": {h}}
	for i := range cfg.Layers {
		p := fmt.Sprintf("blk.%d.", i)
		for name, dims := range map[string][]uint64{
			"attn_norm.weight": {h}, "ffn_norm.weight": {h},
			"attn_q.weight": {h, q}, "attn_k.weight": {h, kv}, "attn_v.weight": {h, kv}, "attn_output.weight": {q, h},
			"ffn_gate.weight": {h, ffn}, "ffn_up.weight": {h, ffn}, "ffn_down.weight": {ffn, h},
		} {
			s[p+name] = dims
		}
		switch cfg.Arch {
		case "qwen2":
			s[p+"attn_q.bias"], s[p+"attn_k.bias"], s[p+"attn_v.bias"] = []uint64{q}, []uint64{kv}, []uint64{kv}
		case "qwen3":
			s[p+"attn_q_norm.weight"], s[p+"attn_k_norm.weight"] = []uint64{hd}, []uint64{hd}
		}
	}
	return s
}

func checkTensors(t *testing.T, f *File, cfg modelConfig, embd TensorType, types map[TensorType]int) {
	t.Helper()
	shapes := expectedShapes(cfg)
	if len(f.Tensors) != len(shapes) {
		t.Errorf("%d tensors, want %d", len(f.Tensors), len(shapes))
	}
	counts := map[TensorType]int{}
	for i := range f.Tensors {
		ti := &f.Tensors[i]
		counts[ti.Type]++
		if want, ok := shapes[ti.Name]; !ok || !reflect.DeepEqual(ti.Dims, want) {
			t.Errorf("%s: dims %v, want %v", ti.Name, ti.Dims, want)
		}
		wantSize := ti.Elements() / uint64(ti.Type.BlockSize()) * uint64(ti.Type.TypeSize())
		if ti.Size != wantSize || uint64(len(f.TensorData(ti))) != ti.Size {
			t.Errorf("%s: Size %d, data %d bytes, want %d", ti.Name, ti.Size, len(f.TensorData(ti)), wantSize)
		}
	}
	if !reflect.DeepEqual(counts, types) {
		t.Errorf("tensor types %v, want %v", counts, types)
	}
	if e, ok := f.Tensor("token_embd.weight"); !ok || e.Type != embd {
		t.Errorf("token_embd.weight: %v, want type %s", e, embd)
	}
}

// TestFixtureVocabs opens every tokenizer-only GGUF and checks that the
// token list covers the ids of its conformance vectors.
func TestFixtureVocabs(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(fixture.Path(t, "vocab"), "*.gguf"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no vocab files: %v", err)
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			f := openFixture(t, "vocab", filepath.Base(p))
			arch, _ := f.String("general.architecture")
			model, _ := f.String("tokenizer.ggml.model")
			tokens, _ := f.Strings("tokenizer.ggml.tokens")
			if arch == "" || model == "" || len(tokens) == 0 || len(f.Tensors) != 0 {
				t.Fatalf("arch %q model %q %d tokens %d tensors", arch, model, len(tokens), len(f.Tensors))
			}
			if n, ok := f.Uint(arch + ".vocab_size"); ok && n != uint64(len(tokens)) {
				t.Errorf("%s.vocab_size %d, %d tokens", arch, n, len(tokens))
			}
			for _, key := range []string{"tokenizer.ggml.token_type", "tokenizer.ggml.scores"} {
				if v, ok := f.Lookup(key); ok && v.Len() != len(tokens) {
					t.Errorf("%s has %d elements, want %d", key, v.Len(), len(tokens))
				}
			}
			checkVectorIDs(t, p+".out", len(tokens))
		})
	}
}

// checkVectorIDs checks that every id in a .out conformance file is a
// valid token index.
func checkVectorIDs(t *testing.T, path string, n int) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ids := strings.Fields(string(raw))
	for _, s := range ids {
		id, err := strconv.Atoi(s)
		if err != nil || id < 0 || id >= n {
			t.Fatalf("%s: id %q is not a token index below %d", filepath.Base(path), s, n)
		}
	}
	if len(ids) == 0 {
		t.Fatalf("%s: no ids", path)
	}
}
