package config

import (
	"reflect"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/models/gguf"
)

// fixtureWant is one row of the model table in the test data README.
type fixtureWant struct {
	arch                                      string
	vocab, hidden, layers, heads, kv, hd, ffn int
	theta, eps                                float32
	bias                                      bool
}

var (
	llamaTiny = fixtureWant{"llama", 49152, 64, 2, 4, 2, 16, 128, 1e4, 1e-5, false}
	qwen3Tiny = fixtureWant{"qwen3", 151936, 64, 2, 4, 2, 32, 128, 1e6, 1e-6, false}
	qwen2Tiny = fixtureWant{"qwen2", 49152, 64, 2, 4, 2, 16, 128, 1e6, 1e-6, true}
)

// check compares a Model with a README row. The fixtures all tie their
// embeddings and have no RoPE scaling or sliding window.
func (w fixtureWant) check(t *testing.T, m *Model) {
	t.Helper()
	got := fixtureWant{m.Arch, m.VocabSize, m.HiddenSize, m.Layers, m.Heads, m.KVHeads, m.HeadDim, m.FFNSize,
		m.RopeTheta, m.RMSNormEps, m.AttentionBias}
	if got != w {
		t.Errorf("got  %+v\nwant %+v", got, w)
	}
	if !m.TieEmbeddings || m.RopeScaling.Type != "" || m.SlidingWindow != 0 || m.RopeDim != m.HeadDim || m.HiddenAct != "silu" {
		t.Errorf("tie %v, rope scaling %q, window %d, rope dim %d, act %q",
			m.TieEmbeddings, m.RopeScaling.Type, m.SlidingWindow, m.RopeDim, m.HiddenAct)
	}
}

func TestFixtureHF(t *testing.T) {
	tests := []struct {
		dir   string
		want  fixtureWant
		quant *Quantization
	}{
		{"llama-tiny", llamaTiny, nil},
		{"qwen3-tiny", qwen3Tiny, nil},
		{"qwen2-tiny", qwen2Tiny, nil},
		{"llama-tiny-mlx-4bit", llamaTiny, &Quantization{GroupSize: 64, Bits: 4, Mode: "affine"}},
		{"llama-tiny-mlx-4bit-dequant", llamaTiny, nil},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			m, err := FromHFDir(fixture.Path(t, "models", tt.dir))
			if err != nil {
				t.Fatal(err)
			}
			tt.want.check(t, m)
			if m.Source != SourceHF || m.FileType != -1 || m.TorchDtype == "" {
				t.Errorf("source %v, file type %d, torch dtype %q", m.Source, m.FileType, m.TorchDtype)
			}
			if !reflect.DeepEqual(m.Quantization, tt.quant) {
				t.Errorf("quantization %+v, want %+v", m.Quantization, tt.quant)
			}
		})
	}
}

// ggufFixtures pairs each fixture GGUF with its README row and the Hugging
// Face directory it was converted from ("" for llama-k256, whose directory is
// not shipped).
var ggufFixtures = []struct {
	file, hfDir string
	want        fixtureWant
}{
	{"llama-tiny-F32.gguf", "llama-tiny", llamaTiny},
	{"llama-tiny-F16.gguf", "llama-tiny", llamaTiny},
	{"llama-tiny-Q8_0.gguf", "llama-tiny", llamaTiny},
	{"llama-tiny-Q4_0.gguf", "llama-tiny", llamaTiny},
	{"qwen3-tiny-F16.gguf", "qwen3-tiny", qwen3Tiny},
	{"qwen2-tiny-F16.gguf", "qwen2-tiny", qwen2Tiny},
	{"llama-k256-Q4_K_M.gguf", "", fixtureWant{"llama", 49152, 256, 2, 4, 4, 64, 512, 1e4, 1e-5, false}},
	{"llama-k256-Q6_K.gguf", "", fixtureWant{"llama", 49152, 256, 2, 4, 4, 64, 512, 1e4, 1e-5, false}},
}

// openGGUF opens a fixture GGUF file, closed when the test ends.
func openGGUF(t *testing.T, name string) *gguf.File {
	t.Helper()
	f, err := gguf.Open(fixture.Path(t, "gguf", name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestFixtureGGUF checks each GGUF against the README and against the
// description of the Hugging Face directory it came from: every field both
// sources carry must agree.
func TestFixtureGGUF(t *testing.T) {
	for _, tt := range ggufFixtures {
		t.Run(tt.file, func(t *testing.T) {
			m, err := FromGGUF(openGGUF(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			tt.want.check(t, m)
			if m.Source != SourceGGUF || m.Name == "" || m.FileType < 0 || m.Quantization != nil {
				t.Errorf("source %v, name %q, file type %d, quantization %v", m.Source, m.Name, m.FileType, m.Quantization)
			}
			if tt.hfDir == "" {
				return
			}
			hf, err := FromHFDir(fixture.Path(t, "models", tt.hfDir))
			if err != nil {
				t.Fatal(err)
			}
			if a, b := shared(m), shared(hf); !reflect.DeepEqual(a, b) {
				t.Errorf("GGUF and Hugging Face descriptions differ:\ngguf %+v\nhf   %+v", a, b)
			}
		})
	}
}

// shared clears the fields only one source carries. A GGUF carries llama3
// scaling as the frequency divisors alone, without the parameters.
func shared(m *Model) Model {
	c := *m
	c.Source, c.Architecture, c.Name, c.TorchDtype, c.FileType, c.Quantization = 0, "", "", "", 0, nil
	if c.RopeScaling.Type == RopeLlama3 {
		c.RopeScaling = RopeScaling{Type: RopeLlama3, Freqs: c.RopeScaling.Freqs}
	}
	return c
}

// TestFixtureMLXMatchesGGUF checks that the MLX directory describes the same
// model as the GGUF of its float original, apart from the quantization.
func TestFixtureMLXMatchesGGUF(t *testing.T) {
	mlx, err := FromHFDir(fixture.Path(t, "models", "llama-tiny-mlx-4bit"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := FromGGUF(openGGUF(t, "llama-tiny-F32.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := shared(mlx), shared(g); !reflect.DeepEqual(a, b) {
		t.Errorf("differ:\nmlx  %+v\ngguf %+v", a, b)
	}
}
