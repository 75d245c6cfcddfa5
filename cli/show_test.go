package cli

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/models/gguf"
	"github.com/mlxrun/mlx/models/hub"
	"github.com/mlxrun/mlx/models/info"
)

// readmeModel is a row of the model table of testdata/README.md.
type readmeModel struct {
	vocab, hidden, layers, heads, kvHeads, headDim, ffn int
	qkNorm                                              bool // qwen3's per-head q/k norms
}

var (
	llamaTiny = readmeModel{vocab: 49152, hidden: 64, layers: 2, heads: 4, kvHeads: 2, headDim: 16, ffn: 128}
	qwen3Tiny = readmeModel{vocab: 151936, hidden: 64, layers: 2, heads: 4, kvHeads: 2, headDim: 32, ffn: 128, qkNorm: true}
)

// params counts the parameters of the README's tied-embedding models from
// their tensor shapes: the embedding, per layer q/k/v/o, gate/up/down and
// two norms (and q/k norms), and the final norm.
func (m readmeModel) params() int64 {
	q, kv := m.heads*m.headDim, m.kvHeads*m.headDim
	layer := m.hidden*q + 2*m.hidden*kv + q*m.hidden + 3*m.hidden*m.ffn + 2*m.hidden
	if m.qkNorm {
		layer += 2 * m.headDim
	}
	return int64(m.vocab*m.hidden + m.layers*layer + m.hidden)
}

// showCase is one fixture model and what testdata/README.md says of it.
type showCase struct {
	path   []string // inside the test data
	src    string   // the Hugging Face folder it was made from
	model  readmeModel
	format string
	quant  string
	origin string // of the chat template
}

var showCases = []showCase{
	{[]string{"gguf", "llama-tiny-Q8_0.gguf"}, "llama-tiny", llamaTiny, "gguf", "Q8_0", "llama-tiny-Q8_0.gguf (tokenizer.chat_template)"},
	{[]string{"gguf", "qwen3-tiny-F16.gguf"}, "qwen3-tiny", qwen3Tiny, "gguf", "F16", "qwen3-tiny-F16.gguf (tokenizer.chat_template)"},
	{[]string{"models", "qwen3-tiny"}, "qwen3-tiny", qwen3Tiny, "safetensors", "BF16", "tokenizer_config.json"},
	{[]string{"models", "llama-tiny-mlx-4bit"}, "llama-tiny", llamaTiny, "mlx", "MLX 4-bit, group 64", "tokenizer_config.json"},
}

// shown is the part of show --json the tests check; UnmarshalJSON fails
// when one of its keys is missing.
type shown struct {
	Model, Format, Architecture, Quantization, ParameterSize string
	Parameters                                               int64
	MLX                                                      *struct {
		Bits      int `json:"bits"`
		GroupSize int `json:"group_size"`
	}
	ContextLength, EmbeddingLength, Layers, Heads, KVHeads int
	HeadDim, VocabSize, Tensors                            int
	ChatTemplate, TemplateOrigin                           string
	Files                                                  []info.File
}

func (s *shown) UnmarshalJSON(data []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	for key, dst := range map[string]any{"model": &s.Model, "format": &s.Format, "architecture": &s.Architecture,
		"quantization": &s.Quantization, "parameter_size": &s.ParameterSize, "parameters": &s.Parameters,
		"mlx_quantization": &s.MLX, "context_length": &s.ContextLength, "embedding_length": &s.EmbeddingLength,
		"layers": &s.Layers, "heads": &s.Heads, "kv_heads": &s.KVHeads, "head_dim": &s.HeadDim,
		"vocab_size": &s.VocabSize, "tensors": &s.Tensors, "chat_template": &s.ChatTemplate,
		"chat_template_origin": &s.TemplateOrigin, "files": &s.Files} {
		raw, ok := m[key]
		if !ok {
			return errors.New("no key " + key)
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			return err
		}
	}
	return nil
}

// readFixtureJSON decodes a JSON file of the test data into v.
func readFixtureJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// contextLength reads max_position_embeddings from a fixture's config.json.
func contextLength(t *testing.T, src string) int {
	t.Helper()
	var c struct {
		N int `json:"max_position_embeddings"`
	}
	readFixtureJSON(t, fixture.Path(t, "models", src, "config.json"), &c)
	return c.N
}

// templateOf reads a fixture's chat template straight from its source:
// the GGUF metadata, or tokenizer_config.json.
func templateOf(t *testing.T, c showCase, path string) string {
	t.Helper()
	if c.format == "gguf" {
		f, err := gguf.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		s, _ := f.String("tokenizer.chat_template")
		return s
	}
	var cfg struct {
		Template string `json:"chat_template"`
	}
	readFixtureJSON(t, filepath.Join(path, "tokenizer_config.json"), &cfg)
	return cfg.Template
}

// TestShowFixtures checks show, show --json and show --template on models of
// the test data against what testdata/README.md and the models' own files say.
func TestShowFixtures(t *testing.T) {
	for _, c := range showCases {
		t.Run(filepath.Join(c.path...), func(t *testing.T) {
			path := fixture.Path(t, c.path...)
			t.Run("json", func(t *testing.T) { checkShowJSON(t, c, path) })
			t.Run("text", func(t *testing.T) { checkShowText(t, c, path) })
			t.Run("template", func(t *testing.T) { checkShowTemplate(t, c, path) })
		})
	}
}

func checkShowJSON(t *testing.T, c showCase, path string) {
	t.Helper()
	out, err := run(t, "show", "--json", path)
	if err != nil {
		t.Fatal(err)
	}
	var s shown
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("show --json: %v\n%s", err, out)
	}
	m := c.model
	if s.Parameters != m.params() || s.ParameterSize != info.HumanCount(m.params()) {
		t.Errorf("parameters %d (%s), want %d", s.Parameters, s.ParameterSize, m.params())
	}
	if s.Model != path || s.Format != c.format || s.Quantization != c.quant || s.TemplateOrigin != c.origin {
		t.Errorf("model %q, format %q, quantization %q, template from %q; want %q, %q, %q, %q",
			s.Model, s.Format, s.Quantization, s.TemplateOrigin, path, c.format, c.quant, c.origin)
	}
	if s.ContextLength != contextLength(t, c.src) || s.EmbeddingLength != m.hidden || s.Layers != m.layers ||
		s.Heads != m.heads || s.KVHeads != m.kvHeads || s.HeadDim != m.headDim || s.VocabSize != m.vocab {
		t.Errorf("context %d, embedding %d, layers %d, heads %d/%d, head_dim %d, vocabulary %d; want %+v",
			s.ContextLength, s.EmbeddingLength, s.Layers, s.Heads, s.KVHeads, s.HeadDim, s.VocabSize, m)
	}
	if (c.format == "mlx") != (s.MLX != nil) || s.MLX != nil && (s.MLX.Bits != 4 || s.MLX.GroupSize != 64) {
		t.Errorf("mlx_quantization %+v", s.MLX)
	}
	if s.ChatTemplate == "" || len(s.Files) == 0 {
		t.Errorf("template %d bytes, files %v", len(s.ChatTemplate), s.Files)
	}
}

func checkShowText(t *testing.T, c showCase, path string) {
	t.Helper()
	out, err := run(t, "show", path)
	if err != nil {
		t.Fatal(err)
	}
	firstLine, _, _ := strings.Cut(templateOf(t, c, path), "\n")
	for _, want := range []string{"  Model\n", "  Template  " + c.origin + "\n", "  License\n", "  Files  " + path,
		"parameters          " + info.HumanCount(c.model.params()) + " (",
		"quantization        " + c.quant + "\n", "mlx show --template " + path,
		clip(firstLine, showLineWidth)} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("escape sequences in plain output:\n%q", out)
	}
}

// checkShowTemplate checks that --template prints the template byte for byte.
func checkShowTemplate(t *testing.T, c showCase, path string) {
	t.Helper()
	out, err := run(t, "show", "--template", path)
	if err != nil {
		t.Fatal(err)
	}
	if want := templateOf(t, c, path); out != want || want == "" {
		t.Fatalf("show --template printed %d bytes, the template has %d:\n%q", len(out), len(want), out)
	}
}

func TestShowErrors(t *testing.T) {
	clearHubEnv(t)
	t.Setenv("HF_HUB_CACHE", t.TempDir())
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.gguf")
	cases := []struct {
		name string
		args []string
		is   error
		want string
	}{
		{"missing file", []string{missing}, errNoModel, missing + ": no such file or folder"},
		{"not a model", []string{dir}, info.ErrNotModel, dir + " holds neither config.json nor a .gguf file"},
		{"not a reference", []string{"no-such-model"}, errNoModel, "no-such-model is neither a file or folder nor a model reference"},
		{"not downloaded", []string{"Qwen/Qwen3-0.6B"}, hub.ErrNotCached, "Qwen/Qwen3-0.6B is not downloaded: run mlx pull Qwen/Qwen3-0.6B"},
		{"template not downloaded", []string{"--template", "org/model:Q4_K_M"}, hub.ErrNotCached, "not downloaded: run mlx pull org/model:Q4_K_M"},
		{"alias not downloaded", []string{"qwen3:0.6b"}, hub.ErrNotCached, "qwen3:0.6b is not downloaded: run mlx pull qwen3:0.6b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := run(t, append([]string{"show"}, c.args...)...)
			if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) || out != "" {
				t.Fatalf("got %v (output %q), want %v saying %q", err, out, c.is, c.want)
			}
		})
	}
	if _, err := run(t, "show", "--json", "--template", dir); err == nil {
		t.Fatal("--json with --template accepted")
	}
}

// commit is the commit of the fake cache's snapshots.
var commit = strings.Repeat("ab", 20)

// cacheModel puts a fixture folder's files (as links) and extra files into a
// fake hub cache as repo at a commit of main, and returns the snapshot.
func cacheModel(t *testing.T, cache, repo string, src string, files ...string) string {
	t.Helper()
	c := hub.Cache{Dir: cache}
	snap := c.SnapshotDir(repo, commit)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(snap, 0o755))
	must(os.MkdirAll(filepath.Join(c.RepoDir(repo), "refs"), 0o755))
	must(os.WriteFile(filepath.Join(c.RepoDir(repo), "refs", "main"), []byte(commit), 0o644))
	for _, name := range files {
		if err := os.Symlink(filepath.Join(src, name), filepath.Join(snap, name)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	return snap
}

func TestShowFromCache(t *testing.T) {
	clearHubEnv(t)
	cache := t.TempDir()
	t.Setenv("HF_HUB_CACHE", cache)
	qwen := fixture.Path(t, "models", "qwen3-tiny")
	snap := cacheModel(t, cache, "test/qwen3-tiny", qwen, "config.json", "generation_config.json",
		"model.safetensors", "tokenizer.json", "tokenizer_config.json")
	if err := os.WriteFile(filepath.Join(snap, "README.md"), []byte("---\nlicense: apache-2.0\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cacheModel(t, cache, "test/llama-tiny-GGUF", fixture.Path(t, "gguf"), "llama-tiny-Q8_0.gguf", "llama-tiny-F16.gguf")
	cases := []struct {
		ref, repo, quant, license string
		params                    int64
	}{
		{"test/qwen3-tiny", "test/qwen3-tiny", "BF16", "apache-2.0", qwen3Tiny.params()},
		{"test/llama-tiny-GGUF:Q8_0", "test/llama-tiny-GGUF", "Q8_0", "", llamaTiny.params()},
		{"test/llama-tiny-GGUF/llama-tiny-F16.gguf", "test/llama-tiny-GGUF", "F16", "", llamaTiny.params()},
	}
	for _, c := range cases {
		t.Run(c.ref, func(t *testing.T) {
			out, err := run(t, "show", "--json", c.ref)
			if err != nil {
				t.Fatal(err)
			}
			var s struct {
				Repo, Commit, Quantization, License string
				Parameters                          int64
			}
			if err := json.Unmarshal([]byte(out), &s); err != nil {
				t.Fatal(err)
			}
			if s.Repo != c.repo || s.Commit != commit || s.Quantization != c.quant || s.License != c.license || s.Parameters != c.params {
				t.Fatalf("got %+v, want %s at %s, %s, license %q, %d parameters", s, c.repo, commit, c.quant, c.license, c.params)
			}
			text, err := run(t, "show", c.ref)
			if err != nil || !strings.Contains(text, "source              "+c.repo+"@main (commit "+commit[:12]+")") {
				t.Fatalf("%v\n%s", err, text)
			}
		})
	}
}

func TestShowUnsupported(t *testing.T) {
	dir := t.TempDir()
	config := `{"architectures": ["MambaForCausalLM"], "model_type": "mamba", "hidden_size": 768, "num_hidden_layers": 24}`
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "show", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"mamba (MambaForCausalLM)", "layers              24\n", "not supported by mlx",
		"  Warnings\n", "none: the model has no chat template", "config.json"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "parameters") {
		t.Errorf("a parameter count for a model without weights:\n%s", out)
	}
}
