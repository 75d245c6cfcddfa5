package config

import (
	"fmt"
	"slices"
)

// maxExperts bounds the experts of a layer, far above any published model.
const maxExperts = 1 << 12

// MoE describes the mixture-of-experts MLP of a sparse model. Experts is 0
// for a dense model.
type MoE struct {
	Experts  int  // experts of a sparse layer
	TopK     int  // experts each token is routed to
	FFNSize  int  // intermediate size of one expert
	NormTopK bool // the chosen experts' weights are renormalised to sum to 1
	// SharedFFNSize is the intermediate size of a shared expert
	// (shared_expert_intermediate_size), 0 when the config names none.
	// Whether the layers have one is the family's to say.
	SharedFFNSize int
	// Step makes every Step-th layer sparse (decoder_sparse_step; 0 and 1
	// mean every layer), and DenseLayers keeps the listed layers dense
	// whatever Step says (mlp_only_layers).
	Step        int
	DenseLayers []int
}

// LayerSparse reports whether layer i (from 0) has the mixture-of-experts
// MLP rather than the dense one.
func (m *Model) LayerSparse(i int) bool {
	e := &m.MoE
	if e.Experts == 0 || slices.Contains(e.DenseLayers, i) {
		return false
	}
	return e.Step <= 1 || (i+1)%e.Step == 0
}

// allSparse reports whether every layer is a mixture of experts, so that
// the model has no MLP of its own.
func (m *Model) allSparse() bool {
	for i := range m.Layers {
		if !m.LayerSparse(i) {
			return false
		}
	}
	return m.Layers > 0
}

// hfMoE reads the expert keys of a config.json, for families whose config
// class has experts. transformers 5 names the expert count
// num_local_experts in some classes and num_experts in others.
func hfMoE(r *reader, fam *Family) MoE {
	d := fam.MoE
	if d.Experts == 0 {
		return MoE{}
	}
	ffnKey := "moe_intermediate_size"
	if fam.MoEFFNKey != "" {
		ffnKey = fam.MoEFFNKey
	}
	e := MoE{
		Experts:       r.int("num_experts", r.int("num_local_experts", d.Experts)),
		TopK:          r.int("num_experts_per_tok", d.TopK),
		FFNSize:       r.int(ffnKey, d.FFNSize),
		NormTopK:      r.bool("norm_topk_prob", d.NormTopK),
		SharedFFNSize: r.int("shared_expert_intermediate_size", d.SharedFFNSize),
		Step:          r.int("decoder_sparse_step", d.Step),
	}
	if e.Experts < 1 {
		r.fail("num_experts", "want at least one expert, got %d", e.Experts)
	}
	if !r.null("mlp_only_layers") {
		r.decode("mlp_only_layers", &e.DenseLayers, "a list of layer indices")
	}
	return e
}

// ggufMoE reads the {arch}.expert_* keys. llama.cpp's files of a family
// whose router always renormalises carry no flag for it, so NormTopK keeps
// the family's value unless expert_weights_norm is present.
func ggufMoE(g *ggufReader, fam *Family) MoE {
	if fam.MoE.Experts == 0 {
		return MoE{}
	}
	e := MoE{
		Experts:       g.uint("expert_count", 0, true),
		TopK:          g.uint("expert_used_count", 0, true),
		FFNSize:       g.uint("expert_feed_forward_length", 0, true),
		SharedFFNSize: g.uint("expert_shared_feed_forward_length", 0, false),
		NormTopK:      fam.GGUFNormTopK,
	}
	if e.Experts < 1 {
		g.fail(g.arch+".expert_count", "want at least one expert, got %d", e.Experts)
	}
	if v, ok := g.f.Bool(g.arch + ".expert_weights_norm"); ok {
		e.NormTopK = v
	}
	return e
}

// validate checks the expert sizes against the model's layer count.
func (e *MoE) validate(layers int) error {
	if e.Experts == 0 {
		return nil
	}
	err := checkRanges([]intRange{
		{"experts", e.Experts, 1, maxExperts},
		{"experts per token", e.TopK, 1, e.Experts},
		{"expert feed-forward size", e.FFNSize, 1, maxFFN},
		{"shared expert feed-forward size", e.SharedFFNSize, 0, maxFFN},
		{"decoder_sparse_step", e.Step, 0, maxLayers},
	})
	if err != nil {
		return err
	}
	if len(e.DenseLayers) > layers {
		return fmt.Errorf("%w: mlp_only_layers lists %d layers of %d", ErrInvalid, len(e.DenseLayers), layers)
	}
	for _, l := range e.DenseLayers {
		if l < 0 || l >= layers {
			return fmt.Errorf("%w: mlp_only_layers: layer %d outside [0, %d)", ErrInvalid, l, layers)
		}
	}
	return nil
}

// hfMoEBlock reads Gemma 4's mixture (enable_moe_block): num_experts
// experts of moe_intermediate_size on every layer, top_k_experts of them
// per token, their weights renormalised.
func hfMoEBlock(r *reader) MoE {
	e := MoE{Experts: r.int("num_experts", 0), TopK: r.int("top_k_experts", 0),
		FFNSize: r.int("moe_intermediate_size", 0), NormTopK: true}
	if e.Experts < 1 {
		r.fail("num_experts", "want at least one expert, got %d", e.Experts)
	}
	return e
}

// ggufExperts reads the expert_* keys of a file of a family whose models
// may have experts (Family.OptionalMoE).
func ggufExperts(g *ggufReader) MoE {
	e := MoE{Experts: g.uint("expert_count", 0, true), TopK: g.uint("expert_used_count", 0, true),
		FFNSize: g.uint("expert_feed_forward_length", 0, true), NormTopK: true}
	if e.Experts < 1 {
		g.fail(g.arch+".expert_count", "want at least one expert, got %d", e.Experts)
	}
	return e
}
