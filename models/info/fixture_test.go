package info

import (
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// loadFixture loads a model of the shared test data, once per test binary.
var loaded = map[string]*Info{}

func loadFixture(t *testing.T, rel string) *Info {
	t.Helper()
	if in, ok := loaded[rel]; ok {
		return in
	}
	in, err := Load(fixture.Path(t, strings.Split(rel, "/")...))
	if err != nil {
		t.Fatal(err)
	}
	loaded[rel] = in
	return in
}

// TestLoadFixtures checks the models of testdata/README.md: tensor types and
// quantization as its tables give them, and parameter counts that agree
// across the forms of one model (GGUF, safetensors, MLX 4-bit).
func TestLoadFixtures(t *testing.T) {
	cases := []struct {
		path   string
		same   string // the same model in another form, "" if none
		format string
		quant  string
		types  map[string]int
		origin string
	}{
		{"gguf/llama-tiny-Q8_0.gguf", "models/llama-tiny", FormatGGUF, "Q8_0",
			map[string]int{"Q8_0": 15, "F32": 5}, "llama-tiny-Q8_0.gguf (tokenizer.chat_template)"},
		{"gguf/llama-tiny-Q4_0.gguf", "models/llama-tiny", FormatGGUF, "Q4_0",
			map[string]int{"Q4_0": 14, "Q8_0": 1, "F32": 5}, "llama-tiny-Q4_0.gguf (tokenizer.chat_template)"},
		{"gguf/llama-tiny-F16.gguf", "models/llama-tiny", FormatGGUF, "F16",
			map[string]int{"F16": 15, "F32": 5}, "llama-tiny-F16.gguf (tokenizer.chat_template)"},
		{"gguf/qwen3-tiny-F16.gguf", "models/qwen3-tiny", FormatGGUF, "F16",
			map[string]int{"F16": 15, "F32": 9}, "qwen3-tiny-F16.gguf (tokenizer.chat_template)"},
		{"gguf/qwen2-tiny-F16.gguf", "models/qwen2-tiny", FormatGGUF, "F16",
			map[string]int{"F16": 15, "F32": 11}, "qwen2-tiny-F16.gguf (tokenizer.chat_template)"},
		{"gguf/llama-k256-Q4_K_M.gguf", "gguf/llama-k256-Q6_K.gguf", FormatGGUF, "Q4_K_M",
			map[string]int{"Q4_K": 12, "Q6_K": 3, "F32": 5}, "llama-k256-Q4_K_M.gguf (tokenizer.chat_template)"},
		{"gguf/llama-k256-Q6_K.gguf", "", FormatGGUF, "Q6_K",
			map[string]int{"Q6_K": 15, "F32": 5}, "llama-k256-Q6_K.gguf (tokenizer.chat_template)"},
		{"models/llama-tiny", "", FormatSafetensors, "F32", map[string]int{"F32": 20}, "tokenizer_config.json"},
		{"models/qwen3-tiny", "", FormatSafetensors, "BF16", map[string]int{"BF16": 24}, "tokenizer_config.json"},
		{"models/llama-tiny-mlx-4bit", "models/llama-tiny", FormatMLX, "MLX 4-bit, group 64",
			map[string]int{"U32": 15, "BF16": 35}, "tokenizer_config.json"},
		{"models/llama-tiny-mlx-4bit-dequant", "models/llama-tiny", FormatSafetensors, "F32",
			map[string]int{"F32": 20}, "tokenizer_config.json"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			in := loadFixture(t, c.path)
			if in.Format != c.format || in.Quantization != c.quant || in.TemplateOrigin != c.origin {
				t.Errorf("format %q, quantization %q, template from %q; want %q, %q, %q",
					in.Format, in.Quantization, in.TemplateOrigin, c.format, c.quant, c.origin)
			}
			if !maps.Equal(in.TensorTypes, c.types) {
				t.Errorf("tensor types %v, want %v", in.TensorTypes, c.types)
			}
			if !in.Supported || len(in.Warnings) != 0 || in.ChatTemplate == "" || in.Parameters <= 0 {
				t.Errorf("supported %v, warnings %q, template %d bytes, %d parameters",
					in.Supported, in.Warnings, len(in.ChatTemplate), in.Parameters)
			}
			checkFiles(t, in)
			if c.same == "" {
				return
			}
			o := loadFixture(t, c.same)
			if in.Parameters != o.Parameters || in.ContextLength != o.ContextLength ||
				in.EmbeddingLength != o.EmbeddingLength || in.VocabSize != o.VocabSize || in.KVHeads != o.KVHeads {
				t.Errorf("%d parameters, context %d, embedding %d, vocabulary %d, %d KV heads; %s has %d, %d, %d, %d, %d",
					in.Parameters, in.ContextLength, in.EmbeddingLength, in.VocabSize, in.KVHeads,
					c.same, o.Parameters, o.ContextLength, o.EmbeddingLength, o.VocabSize, o.KVHeads)
			}
		})
	}
}

// checkFiles checks that the listed files hold the weights and add up.
func checkFiles(t *testing.T, in *Info) {
	t.Helper()
	var total int64
	weights := false
	for _, f := range in.Files {
		total += f.Size
		weights = weights || f.Name == "model.safetensors" || f.Name == filepath.Base(in.Path)
	}
	if !weights || total != in.Size || in.Size <= 0 {
		t.Errorf("files %v (size %d) lack the weights or do not add up", in.Files, in.Size)
	}
}

func TestFixtureGeneration(t *testing.T) {
	in := loadFixture(t, "gguf/qwen3-tiny-F16.gguf")
	hf := loadFixture(t, "models/qwen3-tiny")
	g, h := in.Generation, hf.Generation
	if g.Temperature == nil || h.Temperature == nil || *g.Temperature != *h.Temperature ||
		g.TopP == nil || h.TopP == nil || *g.TopP != *h.TopP || g.TopK == nil || h.TopK == nil || *g.TopK != *h.TopK {
		t.Fatalf("GGUF sampling keys %+v differ from generation_config.json %+v", g, h)
	}
}
