package info

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/config"
)

func TestHFUnsupported(t *testing.T) {
	cases := []struct {
		name, config string
		arch, quant  string
		hidden, ctx  int
	}{
		{"flat", `{"architectures": ["MambaForCausalLM"], "model_type": "mamba", "hidden_size": 32,
			"num_hidden_layers": 3, "vocab_size": 100, "max_position_embeddings": 4096,
			"quantization_config": {"quant_method": "gptq", "bits": 4}}`, "mamba", "gptq 4-bit", 32, 4096},
		{"text_config", `{"architectures": ["LlavaForConditionalGeneration"], "model_type": "llava",
			"text_config": {"hidden_size": 48, "max_position_embeddings": 8192}}`, "llava", "", 48, 8192},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "config.json"), c.config)
			writeFile(t, filepath.Join(dir, "LICENSE"), "\n  MIT License\n\nCopyright ...\n")
			in, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			if in.Architecture != c.arch || in.Quantization != c.quant || in.EmbeddingLength != c.hidden || in.ContextLength != c.ctx {
				t.Errorf("architecture %q, quantization %q, embedding %d, context %d; want %q, %q, %d, %d",
					in.Architecture, in.Quantization, in.EmbeddingLength, in.ContextLength, c.arch, c.quant, c.hidden, c.ctx)
			}
			if in.License != "MIT License" || in.LicenseOrigin != "LICENSE" {
				t.Errorf("license %q from %q", in.License, in.LicenseOrigin)
			}
			// unsupported, and no weights
			if in.Supported || len(in.Warnings) != 2 || !strings.Contains(in.Warnings[1], "no weights") {
				t.Errorf("supported %v, warnings %q", in.Supported, in.Warnings)
			}
			if len(in.Files) != 2 || in.Files[0].Name != "LICENSE" {
				t.Errorf("files %v", in.Files)
			}
		})
	}
}

func TestHFBadConfig(t *testing.T) {
	cases := []struct {
		name, config string
		want         error
	}{
		{"not JSON", `{"architectures": [`, config.ErrInvalid},
		{"unsupported and malformed", `{"architectures": ["MambaForCausalLM"], "hidden_size": "wide"}`, ErrNotModel},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "config.json")
			writeFile(t, path, c.config)
			_, err := Load(dir)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("got %v, want %v naming %s", err, c.want, path)
			}
		})
	}
}

func TestNotModel(t *testing.T) {
	dir := t.TempDir()
	two := filepath.Join(dir, "two")
	writeGGUF(t, mkdir(t, two), "a.gguf", meta{"general.architecture", "mamba"})
	writeGGUF(t, two, "b.gguf", meta{"general.architecture", "mamba"})
	writeFile(t, filepath.Join(dir, "weights.bin"), "x")
	cases := []struct{ path, want string }{
		{mkdir(t, filepath.Join(dir, "empty")), "neither config.json nor a .gguf file"},
		{two, "several GGUF models (a.gguf, b.gguf)"},
		{filepath.Join(dir, "weights.bin"), "neither a .gguf file nor a model folder"},
	}
	for _, c := range cases {
		_, err := Load(c.path)
		if !errors.Is(err, ErrNotModel) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.path, err, c.want)
		}
	}
}

func TestFolderGGUFSkipsProjector(t *testing.T) {
	dir := t.TempDir()
	writeGGUF(t, dir, "mmproj-model-f16.gguf", meta{"general.architecture", "clip"})
	want := writeGGUF(t, dir, "model-Q4_K_M.gguf", meta{"general.architecture", "mamba"})
	got, err := folderGGUF(dir)
	if err != nil || got != want {
		t.Fatalf("folderGGUF = %q, %v; want %q", got, err, want)
	}
}

func mkdir(t *testing.T, dir string) string {
	t.Helper()
	writeFile(t, filepath.Join(dir, ".keep"), "")
	return dir
}

// TestFolderGGUFGlobCharacters finds the GGUF file of a folder whose name
// holds glob metacharacters.
func TestFolderGGUFGlobCharacters(t *testing.T) {
	dir := mkdir(t, filepath.Join(t.TempDir(), "[m]*?"))
	want := writeGGUF(t, dir, "model-Q4_K_M.gguf", meta{"general.architecture", "mamba"})
	got, err := folderGGUF(dir)
	if err != nil || got != want {
		t.Fatalf("folderGGUF = %q, %v; want %q", got, err, want)
	}
}
