package runtime

import (
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
	cfg    *config.Model
	src    model.Source
	gen    config.Generation
	format string // "gguf", "safetensors" or "mlx"
	close  func() error
}

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
	m, err := safetensors.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	format := "safetensors"
	if cfg.Quantization != nil {
		format = "mlx"
	}
	src := model.SafetensorsSource{M: m, Dir: dir, Quant: cfg.Quantization}
	return &opened{cfg: cfg, src: src, gen: gen, format: format, close: m.Close}, nil
}
