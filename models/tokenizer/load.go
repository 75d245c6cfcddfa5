package tokenizer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mlxrun/mlx/models/bounded"
	"github.com/mlxrun/mlx/models/internal/folder"
)

// maxJSONSize bounds the tokenizer files read into memory.
const maxJSONSize = 512 << 20

// Load reads a tokenizer from a tokenizer.json file (with the
// tokenizer_config.json next to it, if any), from a model directory holding
// those files (or a single .gguf), or from a .gguf file.
func Load(path string) (*Tokenizer, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	if st.IsDir() {
		return loadDir(path)
	}
	if strings.EqualFold(filepath.Ext(path), ".gguf") {
		return LoadGGUF(path)
	}
	return LoadJSON(path)
}

func loadDir(dir string) (*Tokenizer, error) {
	p := filepath.Join(dir, "tokenizer.json")
	if _, err := os.Stat(p); err == nil {
		return LoadJSON(p)
	}
	ggufs := folder.WithSuffix(dir, ".gguf")
	if len(ggufs) == 1 {
		return LoadGGUF(ggufs[0])
	}
	return nil, fmt.Errorf("tokenizer: %s: %w: no tokenizer.json (and not exactly one .gguf)", dir, fs.ErrNotExist)
}

// LoadJSON reads a Hugging Face tokenizer.json and, when present, the
// tokenizer_config.json in the same directory.
func LoadJSON(path string) (*Tokenizer, error) {
	data, err := readBounded(path)
	if err != nil {
		return nil, err
	}
	var cfg *hfConfig
	cfgPath := filepath.Join(filepath.Dir(path), "tokenizer_config.json")
	if cdata, err := readBounded(cfgPath); err == nil {
		if cfg, err = parseConfig(cdata, cfgPath); err != nil {
			return nil, fmt.Errorf("tokenizer: %w", err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	t, err := parseHF(data, path, cfg)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	return t, nil
}

// ParseJSON builds a Tokenizer from the contents of a tokenizer.json and,
// optionally (nil), of a tokenizer_config.json; name is used in errors.
func ParseJSON(tokenizerJSON, configJSON []byte, name string) (*Tokenizer, error) {
	var cfg *hfConfig
	if configJSON != nil {
		var err error
		if cfg, err = parseConfig(configJSON, name+" (config)"); err != nil {
			return nil, fmt.Errorf("tokenizer: %w", err)
		}
	}
	t, err := parseHF(tokenizerJSON, name, cfg)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	return t, nil
}

// readBounded reads a whole file, refusing files over maxJSONSize.
func readBounded(path string) ([]byte, error) {
	data, err := bounded.ReadFile(path, maxJSONSize)
	if errors.Is(err, bounded.ErrTooLarge) {
		return nil, fmt.Errorf("tokenizer: %w: %w", ErrFormat, err)
	}
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	return data, nil
}
