package info

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGGUFSynthetic(t *testing.T) {
	embd := shape{"token_embd.weight", []uint64{32, 100}}
	norm := shape{"output_norm.weight", []uint64{32}}
	cases := []struct {
		name    string
		kv      meta
		readme  string
		quant   string
		license string
		origin  string
		context int
		warn    string
	}{
		{"unsupported architecture", meta{"general.architecture", "mamba", "general.file_type", uint32(7 | ftypeGuessed),
			"mamba.context_length", uint32(4096), "mamba.embedding_length", uint32(32), "mamba.block_count", uint32(3),
			"mamba.vocab_size", uint32(100), "general.license", "mit"},
			"", "Q8_0", "mit", "general.license", 4096, "mamba"},
		{"no file type", meta{"general.architecture", "mamba", "general.license", "other", "general.license.name", "custom"},
			"", "F32", "other (custom)", "general.license", 0, "mamba"},
		{"license from the model card", meta{"general.architecture", "mamba", "general.file_type", uint32(15)},
			"---\nlicense: apache-2.0\n---\n# Card\n", "Q4_K_M", "apache-2.0", "README.md", 0, "mamba"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.readme != "" {
				writeFile(t, filepath.Join(dir, "README.md"), c.readme)
			}
			in, err := Load(writeGGUF(t, dir, "m.gguf", c.kv, embd, norm))
			if err != nil {
				t.Fatal(err)
			}
			if in.Quantization != c.quant || in.License != c.license || in.LicenseOrigin != c.origin || in.ContextLength != c.context {
				t.Errorf("quantization %q, license %q from %q, context %d; want %q, %q, %q, %d",
					in.Quantization, in.License, in.LicenseOrigin, in.ContextLength, c.quant, c.license, c.origin, c.context)
			}
			if in.Parameters != 32*100+32 || in.Tensors != 2 || in.ParameterSize != "3.2K" {
				t.Errorf("%d parameters (%s) in %d tensors, want 3232 in 2", in.Parameters, in.ParameterSize, in.Tensors)
			}
			if in.Supported || len(in.Warnings) != 1 || !strings.Contains(in.Warnings[0], c.warn) {
				t.Errorf("supported %v, warnings %q; want one about %s", in.Supported, in.Warnings, c.warn)
			}
			if in.ChatTemplate != "" || !in.Generation.Empty() {
				t.Errorf("template %q, generation %+v; want none", in.ChatTemplate, in.Generation)
			}
		})
	}
}

func TestGGUFSplit(t *testing.T) {
	dir := t.TempDir()
	kv := meta{"general.architecture", "mamba"}
	first := writeGGUF(t, dir, "m-00001-of-00002.gguf", append(kv, "tokenizer.chat_template", "{{ x }}"), shape{"a", []uint64{8, 4}})
	second := writeGGUF(t, dir, "m-00002-of-00002.gguf", kv, shape{"b", []uint64{16}})
	for _, p := range []string{first, second, dir} {
		in, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		if in.Parameters != 8*4+16 || len(in.Files) != 2 || in.Tensors != 2 || in.ChatTemplate != "{{ x }}" {
			t.Errorf("%s: %d parameters in %d tensors, files %v, template %q; want 48 in 2, both files, the first's template",
				p, in.Parameters, in.Tensors, in.Files, in.ChatTemplate)
		}
	}
	if err := os.Remove(second); err != nil {
		t.Fatal(err)
	}
	_, err := Load(first)
	if !errors.Is(err, ErrNotModel) || !strings.Contains(err.Error(), "part 2 of 2") {
		t.Fatalf("missing part: %v", err)
	}
}

func TestGGUFBadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.gguf")
	writeFile(t, path, "GGUF not really")
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("truncated GGUF: %v", err)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
