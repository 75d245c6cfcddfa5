package config

import (
	"errors"
	"testing"
)

// FuzzFromHFJSON feeds mutated config.json and generation_config.json
// texts to the readers: they must return a valid Model (Generation) or an
// error wrapping ErrInvalid or ErrUnsupported, never panic.
func FuzzFromHFJSON(f *testing.F) {
	f.Add(cfg(f, "LlamaForCausalLM"), []byte(`{"temperature": 0.6, "top_k": 20, "eos_token_id": [1, 2]}`))
	f.Add(cfg(f, "Gemma3ForConditionalGeneration", "text_config", map[string]any{"sliding_window": 512}),
		[]byte(`{"bos_token_id": 2}`))
	f.Add(cfg(f, "LlamaForCausalLM", "rope_scaling", map[string]any{"rope_type": "llama3", "factor": 8,
		"low_freq_factor": 1, "high_freq_factor": 4, "original_max_position_embeddings": 8192}), []byte(`{}`))
	f.Add(cfg(f, "Phi3ForCausalLM", "rope_scaling", map[string]any{"type": "longrope",
		"short_factor": []float64{1, 1}, "long_factor": []float64{2, 2}}, "partial_rotary_factor", 0.125), []byte(`null`))
	f.Add(cfg(f, "MistralForCausalLM", "quantization", map[string]any{"group_size": 64, "bits": 4}), []byte(`[]`))
	f.Add(cfg(f, "Qwen3ForCausalLM", "head_dim", 32, "sliding_window", null, "use_sliding_window", false,
		"rope_scaling", null, "tie_word_embeddings", true, "eos_token_id", 151645, "vocab_size", 151936),
		[]byte(`{"do_sample": true}`))
	f.Add(cfg(f, "Gemma4ForCausalLM", "head_dim", 32, "layer_types", []string{"sliding_attention", "full_attention",
		"sliding_attention", "full_attention"}, "per_layer_config", map[string]any{"1": map[string]any{"head_dim": 64}},
		"rope_parameters", map[string]any{"full_attention": map[string]any{"rope_type": "proportional",
			"partial_rotary_factor": 0.25, "rope_theta": 1e6}, "sliding_attention": map[string]any{"rope_theta": 1e4}},
		"num_kv_shared_layers", 2, "use_double_wide_mlp", true, "attention_k_eq_v", true), []byte(`{}`))
	f.Fuzz(func(t *testing.T, config, generation []byte) {
		m, err := FromHFJSON(config)
		if err != nil {
			if !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
		} else if err := m.Validate(); err != nil {
			t.Fatalf("returned a model that fails Validate: %v", err)
		}
		g, err := ParseGeneration(generation)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("generation error wraps no sentinel: %v", err)
			}
		} else if err := g.Validate(); err != nil {
			t.Fatalf("returned generation defaults that fail Validate: %v", err)
		}
	})
}
