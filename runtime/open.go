package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/gguf"
	"github.com/mlxrun/mlx/models/safetensors"
	"github.com/mlxrun/mlx/runtime/model"
)

// opened is a model's files, open, with what Load reads from them.
type opened struct {
	cfg      *config.Model
	src      model.Source
	gen      config.Generation
	template string
	format   string // "gguf", "safetensors" or "mlx"
	close    func() error
}

// maxConfigBytes bounds the side files read from a model directory.
const maxConfigBytes = 16 << 20

// openRef opens a GGUF file or a Hugging Face model directory.
func openRef(ref string) (*opened, error) {
	st, err := os.Stat(ref)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s does not exist", ErrModelNotFound, ref)
		}
		return nil, fmt.Errorf("%w: %w", ErrModelNotFound, err)
	}
	if st.IsDir() {
		return openDir(ref)
	}
	return openGGUF(ref)
}

func openGGUF(path string) (*opened, error) {
	f, err := gguf.Open(path)
	if err != nil {
		return nil, err
	}
	o := &opened{src: model.GGUFSource{F: f}, format: "gguf", close: f.Close}
	if o.cfg, err = config.FromGGUF(f); err == nil {
		o.gen, err = config.GenerationFromGGUF(f)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	o.template, _ = f.String("tokenizer.chat_template")
	return o, nil
}

func openDir(dir string) (*opened, error) {
	if _, err := os.Stat(filepath.Join(dir, "config.json")); err != nil {
		return nil, fmt.Errorf("%w: %s has no config.json (want a Hugging Face model directory or a .gguf file)", ErrModelNotFound, dir)
	}
	cfg, err := config.FromHFDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	gen, err := config.LoadGeneration(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	tmpl, err := hfTemplate(dir)
	if err != nil {
		return nil, err
	}
	m, err := safetensors.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	format := "safetensors"
	if cfg.Quantization != nil {
		format = "mlx"
	}
	src := model.SafetensorsSource{M: m, Dir: dir, Quant: cfg.Quantization}
	return &opened{cfg: cfg, src: src, gen: gen, template: tmpl, format: format, close: m.Close}, nil
}

// hfTemplate reads the chat template of tokenizer_config.json (a string, or
// a list of named templates of which "default" is taken), or of
// chat_template.jinja, which newer checkpoints ship. It is "" when there is
// none.
func hfTemplate(dir string) (string, error) {
	if b, err := readBounded(filepath.Join(dir, "chat_template.jinja")); err == nil {
		return string(b), nil
	}
	b, err := readBounded(filepath.Join(dir, "tokenizer_config.json"))
	if err != nil {
		return "", nil
	}
	var tc struct {
		ChatTemplate json.RawMessage `json:"chat_template"`
	}
	if err := json.Unmarshal(b, &tc); err != nil {
		return "", fmt.Errorf("%w: %s: tokenizer_config.json: %w", ErrInvalidModel, dir, err)
	}
	var s string
	if json.Unmarshal(tc.ChatTemplate, &s) == nil {
		return s, nil
	}
	var named []struct{ Name, Template string }
	if json.Unmarshal(tc.ChatTemplate, &named) == nil {
		for _, t := range named {
			if t.Name == "default" {
				return t.Template, nil
			}
		}
	}
	return "", nil
}

func readBounded(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxConfigBytes {
		return nil, fmt.Errorf("%w: %s is %d bytes, more than %d", ErrInvalidModel, path, st.Size(), maxConfigBytes)
	}
	return os.ReadFile(path)
}
