package runtime

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/models/gguf"
	"github.com/mlxrun/mlx/runtime/model"
)

// writeDir creates a model directory holding the given files.
func writeDir(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// tinySafetensors is a valid safetensors file with one small tensor.
func tinySafetensors() []byte {
	header := `{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	return append(append(b, header...), make([]byte, 8)...)
}

func TestLoadErrors(t *testing.T) {
	gpt2 := `{"architectures":["GPT2LMHeadModel"],"hidden_size":64,"intermediate_size":128,"num_hidden_layers":1,` +
		`"num_attention_heads":4,"num_key_value_heads":2,"head_dim":16,"vocab_size":256}`
	llama := `{"architectures":["LlamaForCausalLM"],"hidden_size":64,"intermediate_size":128,"num_hidden_layers":1,` +
		`"num_attention_heads":4,"num_key_value_heads":2,"vocab_size":256}`
	tests := []struct {
		name     string
		ref      func(t *testing.T) string
		opt      Options
		sentinel error
		words    []string
	}{
		{"missing file", func(t *testing.T) string { return filepath.Join(t.TempDir(), "nope.gguf") }, Options{},
			ErrModelNotFound, []string{"nope.gguf", "does not exist"}},
		{"directory without config", func(t *testing.T) string { return t.TempDir() }, Options{},
			ErrModelNotFound, []string{"config.json"}},
		{"not a gguf file", func(t *testing.T) string {
			return filepath.Join(writeDir(t, map[string][]byte{"m.gguf": []byte("not a model at all")}), "m.gguf")
		}, Options{}, gguf.ErrFormat, []string{"m.gguf"}},
		{"unsupported architecture", func(t *testing.T) string {
			return writeDir(t, map[string][]byte{"config.json": []byte(gpt2), "model.safetensors": tinySafetensors()})
		}, Options{}, config.ErrUnsupported, []string{"GPT2LMHeadModel", "supported: ", "LlamaForCausalLM", "Qwen3ForCausalLM"}},
		{"missing tensor", func(t *testing.T) string {
			return writeDir(t, map[string][]byte{"config.json": []byte(llama), "model.safetensors": tinySafetensors()})
		}, Options{}, model.ErrWeights, []string{"model.embed_tokens.weight"}},
		{"context beyond the model's", func(t *testing.T) string { return fixturePath(t, "gguf", "llama-tiny-F32.gguf") },
			Options{Ctx: 1 << 20}, ErrOptions, []string{"1048576"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Load(context.Background(), tt.ref(t), tt.opt)
			if err == nil {
				e.Close()
				t.Fatal("Load succeeded")
			}
			if !errors.Is(err, tt.sentinel) {
				t.Errorf("error %v, want %v", err, tt.sentinel)
			}
			for _, w := range tt.words {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
		})
	}
}

// TestLoadInfo checks what Load reports about a model.
func TestLoadInfo(t *testing.T) {
	e := loadEngine(t, 0, "models", "llama-tiny-mlx-4bit")
	info, cfg := e.Info(), e.Config()
	if info.Format != "mlx" || info.Arch != "llama" || info.Context != 256 || info.Threads != 2 {
		t.Errorf("info %+v", info)
	}
	// 15 matrices of 4-bit words plus BF16 scales and biases per 64 values, 5 norms in float32.
	if info.WeightBytes <= 0 || info.WeightBytes > int64(cfg.VocabSize*cfg.HiddenSize) {
		t.Errorf("weights take %d bytes, want less than a byte per embedding value", info.WeightBytes)
	}
	wantKV := int64(2 * 2 * cfg.Layers * 256 * cfg.KVHeads * cfg.HeadDim)
	if info.KVBytes != wantKV {
		t.Errorf("KV cache %d bytes, want %d", info.KVBytes, wantKV)
	}
	if e.ChatTemplate() == "" || e.Tokenizer() == nil || cfg.Source != config.SourceHF {
		t.Error("no chat template or tokenizer")
	}
}
