package safetensors

import (
	"slices"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// TestFixtureModels opens the tiny model directories and checks them against
// the table in the test data README.
func TestFixtureModels(t *testing.T) {
	tests := []struct {
		dir     string
		count   int
		dtypes  []DType
		format  string
		vocab   int
		hidden  int
		qRows   int      // rows of q_proj (heads × head_dim)
		kRows   int      // rows of k_proj (kv heads × head_dim)
		special []string // tensors particular to the family
	}{
		{"llama-tiny", 20, []DType{F32}, "pt", 49152, 64, 64, 32, nil},
		{"qwen3-tiny", 24, []DType{BF16}, "pt", 151936, 64, 128, 64, []string{"model.layers.1.self_attn.q_norm.weight", "model.layers.1.self_attn.k_norm.weight"}},
		{"qwen2-tiny", 26, []DType{BF16}, "pt", 49152, 64, 64, 32, []string{"model.layers.0.self_attn.q_proj.bias", "model.layers.1.self_attn.v_proj.bias"}},
		{"llama-tiny-mlx-4bit", 50, []DType{BF16, U32}, "mlx", 49152, 64, 64, 32, []string{"model.embed_tokens.scales", "model.layers.0.mlp.down_proj.biases"}},
		{"llama-tiny-mlx-4bit-dequant", 20, []DType{F32}, "pt", 49152, 64, 64, 32, nil},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			m, err := OpenDir(fixture.Path(t, "models", tt.dir))
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			if m.Len() != tt.count || len(m.Names()) != tt.count {
				t.Errorf("%d tensors, want %d", m.Len(), tt.count)
			}
			if got := m.Metadata()["format"]; got != tt.format {
				t.Errorf("format %q, want %q", got, tt.format)
			}
			if got := dtypes(m); !slices.Equal(got, tt.dtypes) {
				t.Errorf("dtypes %v, want %v", got, tt.dtypes)
			}
			for _, name := range tt.special {
				if _, ok := m.Tensor(name); !ok {
					t.Errorf("tensor %s missing", name)
				}
			}
			mlx := tt.format == "mlx"
			wantShape(t, m, "model.embed_tokens.weight", cols(tt.vocab, tt.hidden, mlx))
			wantShape(t, m, "model.layers.0.self_attn.q_proj.weight", cols(tt.qRows, tt.hidden, mlx))
			wantShape(t, m, "model.layers.1.self_attn.k_proj.weight", cols(tt.kRows, tt.hidden, mlx))
			wantShape(t, m, "model.norm.weight", []int{tt.hidden})
			if mlx {
				wantShape(t, m, "model.embed_tokens.scales", []int{tt.vocab, tt.hidden / 64})
			}
		})
	}
}

// cols returns the shape of a [rows, n] matrix, or of its MLX 4-bit packing
// (8 values per uint32).
func cols(rows, n int, packed bool) []int {
	if packed {
		return []int{rows, n / 8}
	}
	return []int{rows, n}
}

func wantShape(t *testing.T, m *Model, name string, want []int) {
	t.Helper()
	x, ok := m.Tensor(name)
	if !ok {
		t.Errorf("tensor %s missing", name)
		return
	}
	if !slices.Equal(x.Shape, want) || len(x.Data) != x.Elements()*x.DType.Size() {
		t.Errorf("%s: shape %v (%d bytes), want %v", name, x.Shape, len(x.Data), want)
	}
}

// dtypes returns the sorted set of element types in a model.
func dtypes(m *Model) []DType {
	var out []DType
	for _, name := range m.Names() {
		x, _ := m.Tensor(name)
		if !slices.Contains(out, x.DType) {
			out = append(out, x.DType)
		}
	}
	slices.Sort(out)
	return out
}
