package config

import "testing"

// TestGptOssConfig reads the config of a released gpt-oss checkpoint
// (transformers 4's rope_scaling, MXFP4 quantization_config): the experts'
// size from intermediate_size, YaRN without truncation, alternating
// sliding-window layers and the q/k/v biases.
func TestGptOssConfig(t *testing.T) {
	data := cfg(t, "GptOssForCausalLM", "hidden_size", 2880, "intermediate_size", 2880, "num_hidden_layers", 4,
		"num_attention_heads", 64, "num_key_value_heads", 8, "head_dim", 64, "num_local_experts", 32,
		"num_experts_per_tok", 4, "experts_per_token", 4, "sliding_window", 128, "swiglu_limit", 7.0,
		"layer_types", []string{"sliding_attention", "full_attention", "sliding_attention", "full_attention"},
		"max_position_embeddings", 131072, "rope_theta", 150000.0, "attention_bias", true,
		"rope_scaling", map[string]any{"beta_fast": 32.0, "beta_slow": 1.0, "factor": 32.0,
			"original_max_position_embeddings": 4096, "rope_type": "yarn", "truncate": false},
		"quantization_config", map[string]any{"quant_method": "mxfp4", "modules_to_not_convert": []string{"model.layers.*.self_attn"}})
	m, err := FromHFJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	want := RopeScaling{Type: RopeYarn, Factor: 32, OriginalContext: 4096, BetaFast: 32, BetaSlow: 1, NoTruncate: true}
	switch {
	case m.Arch != "gpt-oss" || m.MoE.Experts != 32 || m.MoE.TopK != 4 || m.MoE.FFNSize != 2880:
		t.Errorf("arch %q, experts %+v", m.Arch, m.MoE)
	case m.RopeScaling.Type != want.Type || m.RopeScaling.Factor != want.Factor || m.RopeScaling.OriginalContext != want.OriginalContext ||
		m.RopeScaling.NoTruncate != want.NoTruncate || m.RopeScaling.BetaFast != 32 || m.RopeScaling.BetaSlow != 1:
		t.Errorf("rope scaling %+v, want %+v", m.RopeScaling, want)
	case m.Quantization != nil:
		t.Errorf("quantization %+v, want none (the experts carry their MXFP4 blocks)", m.Quantization)
	case !m.AttentionBias || !m.LayerSliding(0) || m.LayerSliding(1) || m.SlidingWindow != 128:
		t.Errorf("bias %v, window %d, layer 0 sliding %v, layer 1 sliding %v", m.AttentionBias, m.SlidingWindow,
			m.LayerSliding(0), m.LayerSliding(1))
	}
	// transformers' truncate defaults to true.
	data = cfg(t, "GptOssForCausalLM", "rope_scaling", map[string]any{"factor": 32.0,
		"original_max_position_embeddings": 4096, "rope_type": "yarn"})
	if m, err = FromHFJSON(data); err != nil || m.RopeScaling.NoTruncate {
		t.Errorf("yarn without truncate: %+v, %v; want truncation", m.RopeScaling, err)
	}
}
