package config

import (
	"errors"
	"reflect"
	"testing"
)

// TestFromHFJSONGemma4 reads the keys only Gemma 4 has: the full-attention
// layers' heads from global_head_dim or per_layer_config, their
// proportional partial RoPE, KV sharing, keys as values and per-layer
// inputs, and refuses the parts the runtime lacks.
func TestFromHFJSONGemma4(t *testing.T) {
	types := []string{"sliding_attention", "sliding_attention", "sliding_attention", "full_attention"}
	rope := map[string]any{
		"full_attention":    map[string]any{"rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1e6},
		"sliding_attention": map[string]any{"rope_type": "default", "rope_theta": 10000.0}}
	for _, tt := range []struct {
		name       string
		keys       []any
		hd, kv     int
		shared, pl int
		keqv       bool
	}{
		{"defaults", nil, 512, 0, 0, 256, false},
		{"per_layer_config", []any{"per_layer_config", map[string]any{"3": map[string]any{"head_dim": 128, "num_key_value_heads": 1}},
			"num_kv_shared_layers", 1, "use_double_wide_mlp", true, "hidden_size_per_layer_input", null, "attention_k_eq_v", true}, 128, 1, 1, 0, true},
		{"global keys", []any{"global_head_dim", 64, "num_global_key_value_heads", 2, "hidden_size_per_layer_input", 16}, 64, 2, 0, 16, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			keys := append([]any{"head_dim", 32, "layer_types", types, "rope_parameters", rope, "rope_theta", nil}, tt.keys...)
			m, err := FromHFJSON(cfg(t, "Gemma4ForCausalLM", keys...))
			if err != nil {
				t.Fatal(err)
			}
			if m.GlobalHeadDim != tt.hd || m.GlobalKVHeads != tt.kv || m.KVSharedLayers != tt.shared || m.PerLayerInput != tt.pl || m.KEqV != tt.keqv {
				t.Errorf("global head %d, KV heads %d, shared %d, per-layer %d, k=v %v; want %d %d %d %d %v",
					m.GlobalHeadDim, m.GlobalKVHeads, m.KVSharedLayers, m.PerLayerInput, m.KEqV, tt.hd, tt.kv, tt.shared, tt.pl, tt.keqv)
			}
			if m.RopeDim != 32 || m.GlobalRopeDim != tt.hd/4 || !m.RopeProportional || m.RopeTheta != 1e6 || m.RopeLocalTheta != 10000 {
				t.Errorf("rope dims %d/%d, proportional %v, bases %v/%v", m.RopeDim, m.GlobalRopeDim, m.RopeProportional, m.RopeTheta, m.RopeLocalTheta)
			}
			wantKV := tt.kv
			if wantKV == 0 {
				wantKV = m.KVHeads
			}
			if hd, kv, rd := m.LayerShape(3); hd != tt.hd || rd != tt.hd/4 || kv != wantKV {
				t.Errorf("layer 3: head %d, KV heads %d, rotary %d", hd, kv, rd)
			}
		})
	}
	moe, err := FromHFJSON(cfg(t, "Gemma4ForCausalLM", "layer_types", types, "enable_moe_block", true, "num_experts", 8,
		"top_k_experts", 2, "moe_intermediate_size", 64))
	if err != nil || !reflect.DeepEqual(moe.MoE, MoE{Experts: 8, TopK: 2, FFNSize: 64, NormTopK: true}) || !moe.LayerSparse(0) {
		t.Errorf("enable_moe_block: %v, %+v", err, moe.MoE)
	}
	if _, err := FromHFJSON(cfg(t, "Gemma4ForCausalLM", "layer_types", types, "enable_moe_block", true)); !errors.Is(err, ErrInvalid) {
		t.Errorf("enable_moe_block without experts: error %v, want ErrInvalid", err)
	}
	for _, bad := range [][]any{{"use_bidirectional_attention", "all"}} {
		if _, err := FromHFJSON(cfg(t, "Gemma4ForCausalLM", append([]any{"layer_types", types}, bad...)...)); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%v: error %v, want ErrUnsupported", bad, err)
		}
	}
}

// TestFromGGUFGemma4 reads llama.cpp's Gemma 4 keys: head and rotary sizes
// of each layer kind, the pattern as booleans, KV heads per layer, the
// per-layer inputs, and rope_freqs turned back into proportional RoPE.
func TestFromGGUFGemma4(t *testing.T) {
	freqs := []float32{1, 1, 1, 1e30, 1e30, 1e30, 1e30, 1e30}
	meta := llamaKVs("gemma4", "gemma4.attention.key_length", uint32(16), "gemma4.attention.key_length_swa", uint32(8),
		"gemma4.rope.dimension_count", uint32(16), "gemma4.rope.dimension_count_swa", uint32(8),
		"gemma4.attention.sliding_window", uint32(16), "gemma4.attention.sliding_window_pattern", []bool{true, false, true, false},
		"gemma4.attention.head_count_kv", []uint32{2, 1, 2, 1}, "gemma4.attention.shared_kv_layers", uint32(2),
		"gemma4.embedding_length_per_layer_input", uint32(4), "gemma4.rope.freq_base_swa", float32(10000))
	m, err := FromGGUF(buildGGUF(t, meta, f32Tensor{"rope_freqs.weight", freqs},
		f32Tensor{"blk.1.attn_k.weight", []float32{0}}))
	if err != nil {
		t.Fatal(err)
	}
	if m.HeadDim != 8 || m.GlobalHeadDim != 16 || m.RopeDim != 8 || m.GlobalRopeDim != 6 || !m.RopeProportional ||
		m.RopeScaling.Type != "" || m.SlidingPattern != 2 || m.KVHeads != 2 || m.GlobalKVHeads != 1 ||
		m.KVSharedLayers != 2 || m.PerLayerInput != 4 || m.PerLayerVocab != 1000 || !m.KEqV {
		t.Errorf("got %+v", m)
	}
	wide := set(meta, "gemma4.feed_forward_length", []uint32{512, 512, 1024, 1024})
	if m, err := FromGGUF(buildGGUF(t, wide)); err != nil || !m.DoubleWideMLP || m.LayerFFN(1) != 512 || m.LayerFFN(2) != 1024 {
		t.Errorf("double-wide MLPs: %v, layer sizes %d and %d", err, m.LayerFFN(1), m.LayerFFN(2))
	}
	if _, err := FromGGUF(buildGGUF(t, set(meta, "gemma4.feed_forward_length", []uint32{512, 1024, 512, 1024}))); !errors.Is(err, ErrInvalid) {
		t.Errorf("MLP sizes out of pattern: error %v, want ErrInvalid", err)
	}
	wider := set(meta, "gemma4.attention.key_length", uint32(4), "gemma4.rope.dimension_count", uint32(8))
	if _, err := FromGGUF(buildGGUF(t, wider)); !errors.Is(err, ErrInvalid) {
		t.Errorf("full-attention rotary dimensions beyond the head: error %v, want ErrInvalid", err)
	}
	experts := set(meta, "gemma4.expert_count", uint32(8), "gemma4.expert_used_count", uint32(2),
		"gemma4.expert_feed_forward_length", uint32(64))
	if m, err := FromGGUF(buildGGUF(t, experts, f32Tensor{"blk.0.ffn_gate_inp.weight", []float32{0}})); err != nil ||
		!reflect.DeepEqual(m.MoE, MoE{Experts: 8, TopK: 2, FFNSize: 64, NormTopK: true}) {
		t.Errorf("a gemma4 file with experts: %v, %+v", err, m)
	}
	if _, err := FromGGUF(buildGGUF(t, meta, f32Tensor{"blk.0.ffn_gate_inp.weight", []float32{0}})); !errors.Is(err, ErrInvalid) {
		t.Errorf("a gemma4 file with experts and no expert_count: error %v, want ErrInvalid", err)
	}
	if _, err := FromGGUF(buildGGUF(t, llamaKVs("llama"), f32Tensor{"blk.0.ffn_gate_inp.weight", []float32{0}})); !errors.Is(err, ErrUnsupported) {
		t.Errorf("a llama file with experts: error %v, want ErrUnsupported", err)
	}
	bad := set(meta, "gemma4.attention.head_count_kv", []uint32{2, 1, 1, 1})
	if _, err := FromGGUF(buildGGUF(t, bad)); !errors.Is(err, ErrInvalid) {
		t.Errorf("KV heads that differ within a kind: error %v, want ErrInvalid", err)
	}
}
