package model

import (
	"testing"

	"github.com/mlxrun/mlx/runtime/kernels"
)

// hasOnly is a Source that has the named tensors and nothing else.
type hasOnly map[string]bool

func (h hasOnly) Matrix(string, int, int) (*kernels.Matrix, error)         { return nil, nil }
func (h hasOnly) Vector(string, int) ([]float32, error)                    { return nil, nil }
func (h hasOnly) Experts(string, int, int, int) ([]*kernels.Matrix, error) { return nil, nil }
func (h hasOnly) Has(name string) bool                                     { return h[name] }
func (h hasOnly) Where() string                                            { return "test" }

// TestTextModel checks the names of a text model inside a multimodal
// checkpoint, in the layouts of transformers 5 and 4.
func TestTextModel(t *testing.T) {
	for _, tt := range []struct {
		has          hasOnly
		layer, embed string
		output       string
	}{
		{hasOnly{"model.embed_tokens.weight": true}, "model.layers.%d.input_layernorm.weight", "model.embed_tokens.weight", "lm_head.weight"},
		{hasOnly{"model.language_model.embed_tokens.weight": true}, "model.language_model.layers.%d.input_layernorm.weight",
			"model.language_model.embed_tokens.weight", "lm_head.weight"},
		{hasOnly{"language_model.model.embed_tokens.weight": true, "language_model.lm_head.weight": true},
			"language_model.model.layers.%d.input_layernorm.weight", "language_model.model.embed_tokens.weight", "language_model.lm_head.weight"},
	} {
		n := textModel(HFNames, tt.has)
		if n.AttnNorm != tt.layer || n.Embed != tt.embed || n.Output != tt.output {
			t.Errorf("%v: names %s, %s, %s; want %s, %s, %s", tt.has, n.AttnNorm, n.Embed, n.Output, tt.layer, tt.embed, tt.output)
		}
	}
	if HFNames.AttnNorm != "model.layers.%d.input_layernorm.weight" {
		t.Error("textModel changed the shared table")
	}
}
