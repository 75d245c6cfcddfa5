package hub

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mlxrun/mlx/models/bounded"
)

// maxConfig bounds a config.json; maxHeader a safetensors header read to
// find its metadata.
const (
	maxConfig = 4 << 20
	maxHeader = 16 << 20
)

// weightsFormat tells MLX weights from other safetensors, and names their
// quantization: "4bit" for MLX, the method and bits of a quantization_config,
// else the dtype ("BF16").
func weightsFormat(dir string, files []string) (format, quant string) {
	var cfg struct {
		Quantization *struct {
			Bits int `json:"bits"`
		} `json:"quantization"`
		QuantConfig *struct {
			Bits   int    `json:"bits"`
			Method string `json:"quant_method"`
		} `json:"quantization_config"`
		TorchDType string `json:"torch_dtype"`
		DType      string `json:"dtype"`
	}
	if b, err := bounded.ReadFile(filepath.Join(dir, "config.json"), maxConfig); err == nil {
		json.Unmarshal(b, &cfg)
	}
	format = FormatSafetensors
	if i := slices.IndexFunc(files, func(f string) bool { return strings.HasSuffix(f, ".safetensors") }); i >= 0 &&
		safetensorsMeta(filepath.Join(dir, filepath.FromSlash(files[i])))["format"] == "mlx" {
		format = FormatMLX
	}
	switch {
	case cfg.Quantization != nil:
		return FormatMLX, fmt.Sprintf("%dbit", cfg.Quantization.Bits)
	case cfg.QuantConfig != nil && cfg.QuantConfig.Bits > 0:
		return format, fmt.Sprintf("%s-%dbit", cfg.QuantConfig.Method, cfg.QuantConfig.Bits)
	case cfg.QuantConfig != nil:
		return format, cfg.QuantConfig.Method
	}
	dtype := cfg.TorchDType
	if dtype == "" {
		dtype = cfg.DType
	}
	names := map[string]string{"bfloat16": "BF16", "float16": "F16", "float32": "F32"}
	return format, names[dtype]
}

// safetensorsMeta returns the __metadata__ of a safetensors file, or nil.
func safetensorsMeta(path string) map[string]string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	var n uint64
	if err != nil || binary.Read(f, binary.LittleEndian, &n) != nil || n > maxHeader || int64(n) > st.Size()-8 {
		return nil
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil
	}
	var h struct {
		Meta map[string]string `json:"__metadata__"`
	}
	json.Unmarshal(b, &h)
	return h.Meta
}
