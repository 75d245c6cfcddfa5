package config

import (
	"math"
	"reflect"
	"slices"
	"testing"
)

func TestFromGGUF(t *testing.T) {
	ones := slices.Repeat([]float32{1}, 16)
	tests := []struct {
		name    string
		meta    kvs
		tensors []f32Tensor
		want    func(m *Model)
	}{
		{"llama", llamaKVs("llama"), nil, func(m *Model) {}},
		{"untied", llamaKVs("llama"), []f32Tensor{{"output.weight", []float32{0}}}, func(m *Model) { m.TieEmbeddings = false }},
		{"vocab from tokens", llamaKVs("llama", "llama.vocab_size", nil, "tokenizer.ggml.tokens", []string{"a", "b", "c"},
			"tokenizer.ggml.eos_token_id", uint32(0), "tokenizer.ggml.bos_token_id", nil),
			nil, func(m *Model) { m.VocabSize, m.BOS, m.EOS = 3, -1, []int{0} }},
		{"special ids outside the vocabulary ignored", llamaKVs("llama", "tokenizer.ggml.eos_token_id", uint32(5000),
			"tokenizer.ggml.bos_token_id", uint32(151643), "tokenizer.ggml.eot_token_id", uint32(7)),
			nil, func(m *Model) { m.BOS, m.EOS = -1, []int{7} }},
		{"head dim and eot", llamaKVs("llama", "llama.attention.key_length", uint32(64), "llama.rope.dimension_count", uint32(32),
			"tokenizer.ggml.eot_token_id", uint32(7), "general.file_type", nil),
			nil, func(m *Model) { m.HeadDim, m.EOS, m.FileType = 64, []int{2, 7}, -1 }},
		{"qwen2 bias", llamaKVs("qwen2"), []f32Tensor{{"blk.0.attn_q.bias", []float32{0}}},
			func(m *Model) { m.Arch, m.Architecture, m.AttentionBias = "qwen2", "qwen2", true }},
		{"linear", llamaKVs("llama", "llama.rope.scaling.type", "linear", "llama.rope.scaling.factor", float32(4)), nil,
			func(m *Model) { m.RopeScaling = RopeScaling{Type: RopeLinear, Factor: 4} }},
		// llama.cpp reads a missing factor as 1: no scaling.
		{"linear without factor", llamaKVs("llama", "llama.rope.scaling.type", "linear"), nil, func(*Model) {}},
		{"yarn without factor", llamaKVs("qwen3", "qwen3.rope.scaling.type", "yarn"), nil,
			func(m *Model) { m.Arch, m.Architecture = "qwen3", "qwen3" }},
		{"old linear key", llamaKVs("llama", "llama.rope.scale_linear", float32(2)), nil,
			func(m *Model) { m.RopeScaling = RopeScaling{Type: RopeLinear, Factor: 2} }},
		{"yarn", llamaKVs("qwen3", "qwen3.rope.scaling.type", "yarn", "qwen3.rope.scaling.factor", float32(4),
			"qwen3.rope.scaling.original_context_length", uint32(512)), nil,
			func(m *Model) {
				m.Arch, m.Architecture = "qwen3", "qwen3"
				m.RopeScaling = RopeScaling{Type: RopeYarn, Factor: 4, OriginalContext: 512, BetaFast: 32, BetaSlow: 1}
			}},
		{"yarn as llama.cpp defaults it", llamaKVs("qwen3", "qwen3.rope.scaling.type", "yarn", "qwen3.rope.scaling.factor", float32(4),
			"qwen3.rope.scaling.attn_factor", float32(0.5)), nil,
			func(m *Model) {
				m.Arch, m.Architecture = "qwen3", "qwen3"
				m.RopeScaling = RopeScaling{Type: RopeYarn, Factor: 4, OriginalContext: 2048, BetaFast: 32, BetaSlow: 1,
					AttnFactor: float32(0.5 * (1 + 0.1*math.Log(4)))}
			}},
		{"pooling", llamaKVs("llama", "llama.pooling_type", uint32(1)), nil, func(m *Model) { m.Pooling = PoolMean }},
		{"reranker labels", llamaKVs("qwen3", "qwen3.pooling_type", uint32(4), "qwen3.classifier.output_labels", []string{"yes", "no"}), nil,
			func(m *Model) { m.Arch, m.Architecture, m.Pooling, m.Labels = "qwen3", "qwen3", PoolRank, 2 }},
		{"rope_freqs", llamaKVs("llama"), []f32Tensor{{"rope_freqs.weight", ones}},
			func(m *Model) { m.RopeScaling = RopeScaling{Type: RopeLlama3, Freqs: ones} }},
		{"phi3 longrope", llamaKVs("phi3", "phi3.rope.scaling.original_context_length", uint32(1024),
			"phi3.rope.scaling.attn_factor", float32(1.2), "phi3.attention.sliding_window", uint32(2047)),
			[]f32Tensor{{"rope_factors_long.weight", ones}, {"rope_factors_short.weight", ones}, {"output.weight", []float32{0}}},
			func(m *Model) {
				m.Arch, m.Architecture, m.SlidingWindow, m.TieEmbeddings = "phi3", "phi3", 2047, false
				m.RopeScaling = RopeScaling{Type: RopeLongRope, Factor: 2, OriginalContext: 1024, AttnFactor: 1.2, LongFactor: ones, ShortFactor: ones}
			}},
		{"gemma2 defaults", llamaKVs("gemma2"), nil, func(m *Model) {
			m.Arch, m.Architecture, m.HiddenAct = "gemma2", "gemma2", "gelu_pytorch_tanh"
			m.SlidingWindow, m.SlidingPattern, m.AttnSoftcap, m.FinalSoftcap, m.QueryPreAttnScalar = 4096, 2, 50, 30, 32
		}},
		{"gemma2 27B scale", llamaKVs("gemma2", "gemma2.block_count", uint32(46), "gemma2.attention.key_length", uint32(16),
			"gemma2.rope.dimension_count", uint32(16), "gemma2.attn_logit_softcapping", float32(20)), nil,
			func(m *Model) {
				m.Arch, m.Architecture, m.HiddenAct, m.Layers, m.HeadDim, m.RopeDim = "gemma2", "gemma2", "gelu_pytorch_tanh", 46, 16, 16
				m.SlidingWindow, m.SlidingPattern, m.AttnSoftcap, m.FinalSoftcap, m.QueryPreAttnScalar = 4096, 2, 20, 30, 32
			}},
		{"gemma3", llamaKVs("gemma3", "gemma3.attention.sliding_window", uint32(512), "gemma3.rope.freq_base", float32(1e6),
			"gemma3.attention.scale", float32(0.25)), nil,
			func(m *Model) {
				m.Arch, m.Architecture, m.HiddenAct, m.RopeTheta, m.RopeLocalTheta = "gemma3", "gemma3", "gelu_pytorch_tanh", 1e6, 10000
				m.SlidingWindow, m.SlidingPattern, m.QueryPreAttnScalar = 512, 6, 16
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FromGGUF(buildGGUF(t, tt.meta, tt.tensors...))
			if err != nil {
				t.Fatal(err)
			}
			want := llamaModel()
			tt.want(&want)
			if !reflect.DeepEqual(*got, want) {
				t.Errorf("got  %+v\nwant %+v", *got, want)
			}
		})
	}
}

func TestFromGGUFBad(t *testing.T) {
	tests := []struct {
		name    string
		meta    kvs
		tensors []f32Tensor
		want    error
		msg     string
	}{
		{"no architecture", llamaKVs("llama", "general.architecture", nil), nil, ErrInvalid, "general.architecture missing"},
		{"architecture not string", llamaKVs("llama", "general.architecture", uint32(1)), nil, ErrInvalid, "general.architecture missing"},
		{"unknown architecture", llamaKVs("gpt2"), nil, ErrUnsupported, `"gpt2" (supported: gemma2, gemma3, gemma4, gpt-oss, llama, phi3, qwen2, qwen3, qwen35, qwen3moe)`},
		{"missing embedding", llamaKVs("llama", "llama.embedding_length", nil), nil, ErrInvalid, "llama.embedding_length: missing"},
		{"missing eps", llamaKVs("llama", "llama.attention.layer_norm_rms_epsilon", nil), nil, ErrInvalid, "layer_norm_rms_epsilon: missing"},
		{"heads string", llamaKVs("llama", "llama.attention.head_count", "8"), nil, ErrInvalid, "head_count: want a non-negative integer"},
		{"heads negative", llamaKVs("llama", "llama.attention.head_count", int32(-8)), nil, ErrInvalid, "head_count: want a non-negative integer"},
		{"eps string", llamaKVs("llama", "llama.attention.layer_norm_rms_epsilon", "x"), nil, ErrInvalid, "want a number"},
		{"no vocab", llamaKVs("llama", "llama.vocab_size", nil), nil, ErrInvalid, "vocab size 0"},
		{"kv not divisor", llamaKVs("llama", "llama.attention.head_count_kv", uint32(3)), nil, ErrInvalid, "multiple of 3 KV heads"},
		{"hidden not multiple", llamaKVs("llama", "llama.attention.head_count", uint32(7), "llama.attention.head_count_kv", uint32(7)), nil, ErrInvalid, "head dimension 0"},
		{"rope_freqs length", llamaKVs("llama"), []f32Tensor{{"rope_freqs.weight", []float32{1, 2}}}, ErrInvalid, "want 16 F32 values, got 2"},
		{"rope_freqs zero", llamaKVs("llama"), []f32Tensor{{"rope_freqs.weight", make([]float32, 16)}}, ErrInvalid, "factor 0"},
		{"longrope without short", llamaKVs("phi3"), []f32Tensor{{"rope_factors_long.weight", make([]float32, 16)}}, ErrInvalid, "rope_factors_short.weight missing"},
		{"unknown scaling", llamaKVs("llama", "llama.rope.scaling.type", "ntk"), nil, ErrUnsupported, `"ntk"`},
		{"unknown pooling", llamaKVs("llama", "llama.pooling_type", uint32(9)), nil, ErrInvalid, "9 is not a pooling type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromGGUF(buildGGUF(t, tt.meta, tt.tensors...))
			checkErr(t, err, tt.want, tt.msg)
			checkErr(t, err, tt.want, "test.gguf: ")
		})
	}
}

// TestHFAndGGUFAgree describes the same models both ways, with the keys
// llama.cpp's converter writes, and compares every shared field.
func TestHFAndGGUFAgree(t *testing.T) {
	llama3 := map[string]any{"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
		"original_max_position_embeddings": 1024}
	freqs := Llama3Freqs(RopeScaling{Factor: 8, LowFreqFactor: 1, HighFreqFactor: 4, OriginalContext: 1024}, 32, 500000)
	tests := []struct {
		name    string
		hf      []byte
		meta    kvs
		tensors []f32Tensor
	}{
		{"llama3 rope", cfg(t, "LlamaForCausalLM", "rope_scaling", llama3, "rope_theta", 500000.0, "tie_word_embeddings", true),
			llamaKVs("llama", "llama.rope.freq_base", float32(500000)), []f32Tensor{{"rope_freqs.weight", freqs}}},
		{"gemma3", cfg(t, "Gemma3ForCausalLM", "head_dim", 32, "query_pre_attn_scalar", 32, "sliding_window", 512,
			"rope_theta", 1e6, "rope_scaling", map[string]any{"rope_type": "linear", "factor": 8.0}, "bos_token_id", 2, "eos_token_id", 1),
			llamaKVs("gemma3", "gemma3.attention.sliding_window", uint32(512), "gemma3.rope.freq_base", float32(1e6),
				"gemma3.rope.scaling.type", "linear", "gemma3.rope.scaling.factor", float32(8), "gemma3.attention.key_length", uint32(32),
				"tokenizer.ggml.bos_token_id", uint32(2), "tokenizer.ggml.eos_token_id", uint32(1)), nil},
		{"phi3 longrope", cfg(t, "Phi3ForCausalLM", "original_max_position_embeddings", 1024, "bos_token_id", 1, "eos_token_id", 2,
			"rope_scaling", map[string]any{"type": "longrope", "short_factor": slices.Repeat([]float64{1}, 16), "long_factor": slices.Repeat([]float64{3}, 16)}),
			llamaKVs("phi3", "phi3.rope.scaling.original_context_length", uint32(1024)),
			[]f32Tensor{{"output.weight", []float32{0}}, {"rope_factors_short.weight", slices.Repeat([]float32{1}, 16)},
				{"rope_factors_long.weight", slices.Repeat([]float32{3}, 16)}}},
		{"qwen2 yarn", cfg(t, "Qwen2ForCausalLM", "tie_word_embeddings", true,
			"rope_scaling", map[string]any{"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 512}),
			llamaKVs("qwen2", "qwen2.rope.scaling.type", "yarn", "qwen2.rope.scaling.factor", float32(4),
				"qwen2.rope.scaling.original_context_length", uint32(512)), []f32Tensor{{"blk.0.attn_q.bias", []float32{0}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hf, err := FromHFJSON(tt.hf)
			if err != nil {
				t.Fatal(err)
			}
			g, err := FromGGUF(buildGGUF(t, tt.meta, tt.tensors...))
			if err != nil {
				t.Fatal(err)
			}
			if a, b := shared(hf), shared(g); !reflect.DeepEqual(a, b) {
				t.Errorf("differ:\nhf   %+v\ngguf %+v", a, b)
			}
		})
	}
}
