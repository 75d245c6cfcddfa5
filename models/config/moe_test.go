package config

import (
	"reflect"
	"testing"
)

// TestFromHFJSONMoE checks the expert keys of a sparse family, the class
// defaults where they are left out, and which layers are sparse.
func TestFromHFJSONMoE(t *testing.T) {
	tests := []struct {
		name   string
		keys   []any
		want   MoE
		sparse []bool
	}{
		{"defaults", nil, MoE{Experts: 128, TopK: 8, FFNSize: 768, Step: 1}, []bool{true, true, true, true}},
		{"num_local_experts", []any{"num_local_experts", 4, "num_experts_per_tok", 2, "moe_intermediate_size", 64,
			"norm_topk_prob", true, "mlp_only_layers", []int{}, "shared_expert_intermediate_size", 32},
			MoE{Experts: 4, TopK: 2, FFNSize: 64, NormTopK: true, SharedFFNSize: 32, Step: 1, DenseLayers: []int{}},
			[]bool{true, true, true, true}},
		{"num_experts first", []any{"num_experts", 16, "num_local_experts", 4}, MoE{Experts: 16, TopK: 8, FFNSize: 768, Step: 1},
			[]bool{true, true, true, true}},
		{"sparse step and dense layers", []any{"decoder_sparse_step", 2, "mlp_only_layers", []int{3}},
			MoE{Experts: 128, TopK: 8, FFNSize: 768, Step: 2, DenseLayers: []int{3}}, []bool{false, true, false, false}},
		{"null dense layers", []any{"mlp_only_layers", null}, MoE{Experts: 128, TopK: 8, FFNSize: 768, Step: 1},
			[]bool{true, true, true, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := FromHFJSON(cfg(t, "Qwen3MoeForCausalLM", tt.keys...))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(m.MoE, tt.want) {
				t.Errorf("MoE %+v, want %+v", m.MoE, tt.want)
			}
			for i, want := range tt.sparse {
				if m.LayerSparse(i) != want {
					t.Errorf("layer %d sparse %v, want %v", i, !want, want)
				}
			}
		})
	}
	dense, err := FromHFJSON(cfg(t, "LlamaForCausalLM", "num_experts", 8))
	if err != nil {
		t.Fatal(err)
	}
	if dense.MoE.Experts != 0 || dense.LayerSparse(0) {
		t.Errorf("a dense family reads experts: %+v", dense.MoE)
	}
}

func TestFromHFJSONMoEBad(t *testing.T) {
	tests := []struct {
		name string
		keys []any
		msg  string
	}{
		{"top-k above experts", []any{"num_experts", 4, "num_experts_per_tok", 5}, "experts per token 5"},
		{"zero experts", []any{"num_experts", 0}, "num_experts: want at least one expert"},
		{"experts huge", []any{"num_experts", 1 << 20}, "experts 1048576"},
		{"expert ffn zero", []any{"moe_intermediate_size", 0}, "expert feed-forward size 0"},
		{"dense layer outside", []any{"mlp_only_layers", []int{4}}, "layer 4"},
		{"dense layers not ints", []any{"mlp_only_layers", "all"}, "mlp_only_layers"},
		{"too many dense layers", []any{"mlp_only_layers", []int{0, 1, 2, 3, 0}}, "lists 5 layers"},
		{"negative step", []any{"decoder_sparse_step", -1}, "decoder_sparse_step -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromHFJSON(cfg(t, "Qwen3MoeForCausalLM", tt.keys...))
			checkErr(t, err, ErrInvalid, tt.msg)
		})
	}
}

// TestFromGGUFMoE checks the expert keys of a GGUF file, the family's
// renormalisation when the file says nothing of it, and a missing key.
func TestFromGGUFMoE(t *testing.T) {
	experts := []any{"qwen3moe.expert_count", uint32(4), "qwen3moe.expert_used_count", uint32(2),
		"qwen3moe.expert_feed_forward_length", uint32(64)}
	m, err := FromGGUF(buildGGUF(t, llamaKVs("qwen3moe", experts...)))
	if err != nil {
		t.Fatal(err)
	}
	if want := (MoE{Experts: 4, TopK: 2, FFNSize: 64, NormTopK: true}); !reflect.DeepEqual(m.MoE, want) {
		t.Errorf("MoE %+v, want %+v", m.MoE, want)
	}
	m, err = FromGGUF(buildGGUF(t, llamaKVs("qwen3moe", append(experts, "qwen3moe.expert_weights_norm", false)...)))
	if err != nil {
		t.Fatal(err)
	}
	if m.MoE.NormTopK {
		t.Error("expert_weights_norm false is not read")
	}
	// llama.cpp reads no feed_forward_length where every layer is sparse,
	// and files such as gpt-oss's leave it out; a dense layer needs it.
	m, err = FromGGUF(buildGGUF(t, llamaKVs("qwen3moe", append(experts, "qwen3moe.feed_forward_length", nil)...)))
	if err != nil {
		t.Errorf("experts on every layer without feed_forward_length: %v", err)
	} else if m.FFNSize != 0 || m.MoE.FFNSize != 64 {
		t.Errorf("without feed_forward_length: MLP size %d, experts' %d; want 0 and 64", m.FFNSize, m.MoE.FFNSize)
	}
	_, err = FromGGUF(buildGGUF(t, llamaKVs("llama", "llama.feed_forward_length", nil)))
	checkErr(t, err, ErrInvalid, "llama.feed_forward_length: missing")
	_, err = FromGGUF(buildGGUF(t, llamaKVs("qwen3moe", "qwen3moe.expert_count", uint32(4))))
	checkErr(t, err, ErrInvalid, "qwen3moe.expert_used_count: missing")
	_, err = FromGGUF(buildGGUF(t, llamaKVs("qwen3moe", set(experts, "qwen3moe.expert_used_count", uint32(9))...)))
	checkErr(t, err, ErrInvalid, "experts per token 9")
	_, err = FromGGUF(buildGGUF(t, llamaKVs("qwen3moe", set(experts, "qwen3moe.expert_count", uint32(0))...)))
	checkErr(t, err, ErrInvalid, "expert_count: want at least one expert")
}
