package model_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/model"
)

// asMoE presents the trained Qwen3.5 fixture as a Qwen3.5-MoE checkpoint
// of the same function: every layer's MLP becomes two experts that are
// copies of it, stacked with gate and up fused as transformers stores
// them, behind a router of zeros (each weighs one half), and a shared
// expert whose down projection is zero.
type asMoE struct {
	model.SafetensorsSource
	experts int
}

// mlp returns the layer and the part of an expert tensor's name, or ok
// false for other names.
func (asMoE) mlp(name string) (layer int, part string, ok bool) {
	rest, found := strings.CutPrefix(name, "model.layers.")
	if !found {
		return 0, "", false
	}
	if _, err := fmt.Sscanf(rest, "%d.mlp.", &layer); err != nil {
		return 0, "", false
	}
	part, ok = strings.CutPrefix(rest, fmt.Sprintf("%d.mlp.", layer))
	return layer, part, ok
}

func (s asMoE) Has(name string) bool {
	if _, part, ok := s.mlp(name); ok {
		switch part {
		case "gate.weight", "experts.gate_up_proj", "experts.down_proj", "shared_expert_gate.weight",
			"shared_expert.gate_proj.weight", "shared_expert.up_proj.weight", "shared_expert.down_proj.weight":
			return true
		}
		return false
	}
	return s.SafetensorsSource.Has(name)
}

// dense returns the fixture's MLP matrix of layer i.
func (s asMoE) dense(i int, proj string, rows, cols int) (*kernels.Matrix, error) {
	return s.SafetensorsSource.Matrix(fmt.Sprintf("model.layers.%d.mlp.%s.weight", i, proj), rows, cols)
}

func zeros(rows, cols int) (*kernels.Matrix, error) {
	return kernels.NewMatrix(kernels.Matrix{Type: kernels.F32, Rows: rows, Cols: cols, Data: make([]byte, 4*rows*cols)})
}

func (s asMoE) Matrix(name string, rows, cols int) (*kernels.Matrix, error) {
	i, part, ok := s.mlp(name)
	switch {
	case !ok:
		return s.SafetensorsSource.Matrix(name, rows, cols)
	case part == "shared_expert.gate_proj.weight", part == "shared_expert.up_proj.weight":
		return s.dense(i, strings.TrimSuffix(strings.TrimPrefix(part, "shared_expert."), ".weight"), rows, cols)
	case part == "gate.weight", part == "shared_expert.down_proj.weight", part == "shared_expert_gate.weight":
		return zeros(rows, cols)
	}
	return nil, fmt.Errorf("asMoE: no matrix %s", name)
}

func (s asMoE) Experts(name string, n, rows, cols int) ([]*kernels.Matrix, error) {
	i, part, ok := s.mlp(name)
	if !ok || n != s.experts {
		return nil, fmt.Errorf("asMoE: no %d experts %s", n, name)
	}
	var w kernels.Matrix
	switch part {
	case "experts.gate_up_proj":
		gate, err := s.dense(i, "gate_proj", rows/2, cols)
		if err != nil {
			return nil, err
		}
		up, err := s.dense(i, "up_proj", rows/2, cols)
		if err != nil {
			return nil, err
		}
		w = kernels.Matrix{Type: gate.Type, Rows: rows, Cols: cols, Data: append(append([]byte{}, gate.Data...), up.Data...)}
	case "experts.down_proj":
		down, err := s.dense(i, "down_proj", rows, cols)
		if err != nil {
			return nil, err
		}
		w = kernels.Matrix{Type: down.Type, Rows: rows, Cols: cols, Data: down.Data}
	default:
		return nil, fmt.Errorf("asMoE: no experts %s", name)
	}
	out := make([]*kernels.Matrix, n)
	for x := range out {
		out[x] = &kernels.Matrix{Type: w.Type, Rows: w.Rows, Cols: w.Cols, Data: w.Data}
	}
	return out, nil
}

// TestDeltaNetMoE runs Qwen3.5-MoE's layers — the linear and gated
// attention with a mixture of experts and a shared expert on every layer,
// bound by transformers' names — on the fixture presented as such a
// model, which computes what the dense one does.
func TestDeltaNetMoE(t *testing.T) {
	h := loadHybrid(t)
	cfg := *h.m.Config
	cfg.Arch, cfg.Architecture = "qwen35moe", "Qwen3_5MoeForCausalLM"
	cfg.MoE.Experts, cfg.MoE.TopK, cfg.MoE.FFNSize, cfg.MoE.SharedFFNSize, cfg.MoE.Step = 2, 2, cfg.FFNSize, cfg.FFNSize, 1
	moe := buildHybrid(t, &cfg, asMoE{hybridSource(t), 2})
	for i, l := range moe.m.Layers {
		if l.MoE == nil || l.MoE.Shared == nil || l.Gate != nil {
			t.Fatalf("layer %d: not a mixture with a shared expert", i)
		}
	}
	h.sameLogits(t, "mixture", moe)
}
