package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// cfg returns a config.json for arch: a small complete base with the given
// keys set (a nil value deletes the key; use json.RawMessage("null") for null).
func cfg(t testing.TB, arch string, kv ...any) []byte {
	t.Helper()
	m := map[string]any{
		"architectures": []string{arch}, "vocab_size": 1000, "hidden_size": 256, "num_hidden_layers": 4,
		"num_attention_heads": 8, "num_key_value_heads": 2, "intermediate_size": 512,
		"max_position_embeddings": 2048, "rms_norm_eps": 1e-5, "rope_theta": 10000.0,
		"bos_token_id": 1, "eos_token_id": 2, "torch_dtype": "bfloat16",
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(m, kv[i].(string))
		} else {
			m[kv[i].(string)] = kv[i+1]
		}
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

var null = json.RawMessage("null")

// base is what cfg's base describes for LlamaForCausalLM.
func base() Model {
	return Model{Source: SourceHF, Arch: "llama", Architecture: "LlamaForCausalLM", VocabSize: 1000, HiddenSize: 256,
		Layers: 4, Heads: 8, KVHeads: 2, HeadDim: 32, FFNSize: 512, ContextLength: 2048, RMSNormEps: 1e-5,
		HiddenAct: "silu", RopeTheta: 10000, RopeDim: 32, BOS: 1, EOS: []int{2}, TorchDtype: "bfloat16", FileType: -1}
}

func TestFromHFJSON(t *testing.T) {
	type kv = []any
	tests := []struct {
		name, arch string
		keys       kv
		want       func(m *Model)
	}{
		{"llama", "LlamaForCausalLM", nil, func(m *Model) {}},
		{"llama class defaults", "LlamaForCausalLM",
			kv{"vocab_size", nil, "num_attention_heads", nil, "num_key_value_heads", nil, "max_position_embeddings", nil,
				"rms_norm_eps", nil, "rope_theta", nil, "bos_token_id", nil, "eos_token_id", nil, "torch_dtype", nil},
			func(m *Model) {
				m.VocabSize, m.Heads, m.KVHeads, m.HeadDim, m.RopeDim = 32000, 32, 32, 8, 8
				m.RMSNormEps, m.TorchDtype = 1e-6, ""
			}},
		{"llama bias and untied", "LlamaForCausalLM", kv{"attention_bias", true, "tie_word_embeddings", false, "dtype", "float16", "torch_dtype", nil},
			func(m *Model) { m.AttentionBias, m.TorchDtype = true, "float16" }},
		{"llama null ids", "LlamaForCausalLM", kv{"bos_token_id", null, "eos_token_id", null},
			func(m *Model) { m.BOS, m.EOS = -1, nil }},
		{"eos list", "LlamaForCausalLM", kv{"eos_token_id", []int{2, 7, 9}},
			func(m *Model) { m.EOS = []int{2, 7, 9} }},
		{"ids outside the vocabulary ignored", "LlamaForCausalLM", kv{"bos_token_id", 151643, "eos_token_id", []int{2, 1000}},
			func(m *Model) { m.BOS, m.EOS = -1, []int{2} }},
		{"integral floats", "LlamaForCausalLM", kv{"hidden_size", 256.0, "max_position_embeddings", 4096.0},
			func(m *Model) { m.ContextLength = 4096 }},
		{"model_type only", "", kv{"architectures", nil, "model_type", "llama"},
			func(m *Model) { m.Architecture = "llama" }},
		{"mistral default window", "MistralForCausalLM", nil,
			func(m *Model) { m.Architecture, m.SlidingWindow = "MistralForCausalLM", 4096 }},
		{"mistral null window", "MistralForCausalLM", kv{"sliding_window", null},
			func(m *Model) { m.Architecture = "MistralForCausalLM" }},
		{"mistral explicit head_dim", "MistralForCausalLM", kv{"sliding_window", 1024, "head_dim", 64},
			func(m *Model) {
				m.Architecture, m.SlidingWindow, m.HeadDim, m.RopeDim = "MistralForCausalLM", 1024, 64, 64
			}},
		{"qwen2 window off", "Qwen2ForCausalLM", kv{"use_sliding_window", false, "sliding_window", 32768},
			func(m *Model) { m.Arch, m.Architecture, m.AttentionBias = "qwen2", "Qwen2ForCausalLM", true }},
		{"qwen2 window on", "Qwen2ForCausalLM", kv{"use_sliding_window", true, "sliding_window", 1024},
			func(m *Model) {
				m.Arch, m.Architecture, m.AttentionBias, m.SlidingWindow = "qwen2", "Qwen2ForCausalLM", true, 1024
			}},
		{"qwen2 yarn", "Qwen2ForCausalLM", kv{"rope_scaling", map[string]any{"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1024}},
			func(m *Model) {
				m.Arch, m.Architecture, m.AttentionBias = "qwen2", "Qwen2ForCausalLM", true
				m.RopeScaling = RopeScaling{Type: RopeYarn, Factor: 4, OriginalContext: 1024, BetaFast: 32, BetaSlow: 1}
			}},
		{"qwen3 head_dim", "Qwen3ForCausalLM", kv{"head_dim", 64, "rope_scaling", null, "sliding_window", null},
			func(m *Model) { m.Arch, m.Architecture, m.HeadDim, m.RopeDim = "qwen3", "Qwen3ForCausalLM", 64, 64 }},
		{"qwen3 default head_dim", "Qwen3ForCausalLM", nil,
			func(m *Model) { m.Arch, m.Architecture, m.HeadDim, m.RopeDim = "qwen3", "Qwen3ForCausalLM", 128, 128 }},
		{"gemma2", "Gemma2ForCausalLM", kv{"head_dim", 32, "hidden_activation", "gelu_pytorch_tanh", "query_pre_attn_scalar", 32,
			"bos_token_id", nil, "eos_token_id", nil},
			func(m *Model) {
				m.Arch, m.Architecture, m.HiddenAct, m.TieEmbeddings = "gemma2", "Gemma2ForCausalLM", "gelu_pytorch_tanh", true
				m.SlidingWindow, m.SlidingPattern, m.AttnSoftcap, m.FinalSoftcap, m.QueryPreAttnScalar = 4096, 2, 50, 30, 32
				m.BOS, m.EOS = 2, []int{1}
			}},
		{"gemma3 causal", "Gemma3ForCausalLM", kv{"head_dim", 32, "sliding_window", 512, "sliding_window_pattern", 6,
			"rope_local_base_freq", 10000.0, "rope_theta", 1e6, "query_pre_attn_scalar", 32,
			"rope_scaling", map[string]any{"rope_type": "linear", "factor": 8.0}},
			func(m *Model) {
				m.Arch, m.Architecture, m.HiddenAct, m.TieEmbeddings = "gemma3", "Gemma3ForCausalLM", "gelu_pytorch_tanh", true
				m.SlidingWindow, m.SlidingPattern, m.QueryPreAttnScalar = 512, 6, 32
				m.RopeTheta, m.RopeLocalTheta = 1e6, 10000
				m.RopeScaling = RopeScaling{Type: RopeLinear, Factor: 8}
			}},
		{"gemma3 layer_types", "Gemma3ForCausalLM", kv{"head_dim", 32, "query_pre_attn_scalar", 32,
			"layer_types", []string{"sliding_attention", "full_attention", "sliding_attention", "full_attention"}},
			func(m *Model) {
				m.Arch, m.Architecture, m.HiddenAct, m.TieEmbeddings = "gemma3", "Gemma3ForCausalLM", "gelu_pytorch_tanh", true
				m.SlidingWindow, m.SlidingPattern, m.QueryPreAttnScalar, m.RopeLocalTheta = 4096, 2, 32, 10000
			}},
		{"gemma3 rope_parameters by layer type", "Gemma3ForCausalLM", kv{"head_dim", 32, "query_pre_attn_scalar", 32,
			"rope_theta", nil, "layer_types", []string{"sliding_attention", "sliding_attention", "sliding_attention", "full_attention"},
			"rope_parameters", map[string]any{
				"full_attention":    map[string]any{"rope_type": "linear", "factor": 8.0, "rope_theta": 2e6},
				"sliding_attention": map[string]any{"rope_type": "default", "rope_theta": 20000.0}}},
			func(m *Model) {
				m.Arch, m.Architecture, m.HiddenAct, m.TieEmbeddings = "gemma3", "Gemma3ForCausalLM", "gelu_pytorch_tanh", true
				m.SlidingWindow, m.SlidingPattern, m.QueryPreAttnScalar = 4096, 4, 32
				m.RopeTheta, m.RopeLocalTheta = 2e6, 20000
				m.RopeScaling = RopeScaling{Type: RopeLinear, Factor: 8}
			}},
		{"phi3 rope_parameters", "Phi3ForCausalLM", kv{"rope_theta", nil,
			"rope_parameters", map[string]any{"rope_type": "default", "rope_theta": 250000.0, "partial_rotary_factor": 0.75}},
			func(m *Model) {
				m.Arch, m.Architecture, m.RopeTheta, m.RopeDim = "phi3", "Phi3ForCausalLM", 250000, 24
			}},
		{"phi3 longrope factor", "Phi3ForCausalLM", kv{"max_position_embeddings", 8192, "original_max_position_embeddings", 2048,
			"rope_scaling", map[string]any{"type": "longrope", "factor": 2.0, "short_factor": slices.Repeat([]float64{1}, 16),
				"long_factor": slices.Repeat([]float64{2.5}, 16)}},
			func(m *Model) {
				m.Arch, m.Architecture, m.ContextLength = "phi3", "Phi3ForCausalLM", 8192
				m.RopeScaling = RopeScaling{Type: RopeLongRope, Factor: 2, OriginalContext: 2048,
					ShortFactor: slices.Repeat([]float32{1}, 16), LongFactor: slices.Repeat([]float32{2.5}, 16)}
			}},
		{"phi3 longrope", "Phi3ForCausalLM", kv{"max_position_embeddings", 8192, "original_max_position_embeddings", 2048,
			"partial_rotary_factor", 0.75, "sliding_window", 2047,
			"rope_scaling", map[string]any{"type": "longrope", "short_factor": slices.Repeat([]float64{1}, 12), "long_factor": slices.Repeat([]float64{2.5}, 12)}},
			func(m *Model) {
				m.Arch, m.Architecture, m.ContextLength, m.RopeDim, m.SlidingWindow = "phi3", "Phi3ForCausalLM", 8192, 24, 2047
				m.RopeScaling = RopeScaling{Type: RopeLongRope, Factor: 4, OriginalContext: 2048,
					ShortFactor: slices.Repeat([]float32{1}, 12), LongFactor: slices.Repeat([]float32{2.5}, 12)}
			}},
		{"mlx quantization", "LlamaForCausalLM", kv{"quantization", map[string]any{"group_size": 32, "bits": 8},
			"quantization_config", map[string]any{"group_size": 32, "bits": 8}},
			func(m *Model) { m.Quantization = &Quantization{GroupSize: 32, Bits: 8, Mode: "affine"} }},
		{"quantization_config only", "LlamaForCausalLM", kv{"quantization_config", map[string]any{"group_size": 64, "bits": 4, "mode": "affine"}},
			func(m *Model) { m.Quantization = &Quantization{GroupSize: 64, Bits: 4, Mode: "affine"} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FromHFJSON(cfg(t, tt.arch, tt.keys...))
			if err != nil {
				t.Fatal(err)
			}
			want := base()
			tt.want(&want)
			if !reflect.DeepEqual(*got, want) {
				t.Errorf("got  %+v\nwant %+v", *got, want)
			}
		})
	}
}

// TestFromHFJSONGemma3Nested reads a Gemma3ForConditionalGeneration config:
// the text model's keys come from text_config, with Gemma3TextConfig defaults
// for what it leaves out and the top level for ids and quantization.
func TestFromHFJSONGemma3Nested(t *testing.T) {
	data := []byte(`{
		"architectures": ["Gemma3ForConditionalGeneration"], "model_type": "gemma3",
		"eos_token_id": [1, 106], "torch_dtype": "bfloat16",
		"quantization": {"group_size": 64, "bits": 4},
		"text_config": {"hidden_size": 2560, "intermediate_size": 10240, "model_type": "gemma3_text",
			"num_hidden_layers": 34, "rope_scaling": {"factor": 8.0, "rope_type": "linear"}, "sliding_window": 1024},
		"vision_config": {"hidden_size": 1152, "num_hidden_layers": 27}
	}`)
	m, err := FromHFJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	want := Model{Source: SourceHF, Arch: "gemma3", Architecture: "Gemma3ForConditionalGeneration",
		VocabSize: 262208, HiddenSize: 2560, Layers: 34, Heads: 8, KVHeads: 4, HeadDim: 256, FFNSize: 10240,
		ContextLength: 131072, RMSNormEps: 1e-6, HiddenAct: "gelu_pytorch_tanh", RopeTheta: 1e6, RopeLocalTheta: 10000,
		RopeDim: 256, RopeScaling: RopeScaling{Type: RopeLinear, Factor: 8}, TieEmbeddings: true,
		SlidingWindow: 1024, SlidingPattern: 6, QueryPreAttnScalar: 256, BOS: 2, EOS: []int{1, 106},
		Quantization: &Quantization{GroupSize: 64, Bits: 4, Mode: "affine"}, TorchDtype: "bfloat16", FileType: -1}
	if !reflect.DeepEqual(*m, want) {
		t.Errorf("got  %+v\nwant %+v", *m, want)
	}
	for i, sliding := range []bool{true, true, true, true, true, false, true} {
		if m.LayerSliding(i) != sliding {
			t.Errorf("layer %d sliding %v, want %v", i, m.LayerSliding(i), sliding)
		}
	}
}

func TestFromHFJSONLlama3Rope(t *testing.T) {
	rope := map[string]any{"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
		"original_max_position_embeddings": 8192}
	m, err := FromHFJSON(cfg(t, "LlamaForCausalLM", "rope_scaling", rope, "rope_theta", 500000.0, "max_position_embeddings", 131072))
	if err != nil {
		t.Fatal(err)
	}
	s := m.RopeScaling
	if s.Type != RopeLlama3 || s.Factor != 8 || s.LowFreqFactor != 1 || s.HighFreqFactor != 4 || s.OriginalContext != 8192 {
		t.Fatalf("scaling %+v", s)
	}
	// The divisors go from 1 (short wavelengths) up to the factor (long
	// ones), never down.
	if len(s.Freqs) != m.RopeDim/2 || s.Freqs[0] != 1 || s.Freqs[len(s.Freqs)-1] != s.Factor {
		t.Fatalf("freqs %v", s.Freqs)
	}
	for i := 1; i < len(s.Freqs); i++ {
		if s.Freqs[i] < s.Freqs[i-1] {
			t.Fatalf("freqs decrease at %d: %v", i, s.Freqs)
		}
	}
}

func TestFromHFJSONBad(t *testing.T) {
	type kv = []any
	tests := []struct {
		name, arch string
		keys       kv
		want       error
		msg        string
	}{
		{"unknown architecture", "GPT2LMHeadModel", nil, ErrUnsupported, "LlamaForCausalLM, MistralForCausalLM"},
		{"unknown model_type", "", kv{"architectures", nil, "model_type", "gpt2"}, ErrUnsupported, `model_type "gpt2"`},
		{"architectures not a list", "", kv{"architectures", "LlamaForCausalLM"}, ErrInvalid, "architectures"},
		{"missing hidden_size", "LlamaForCausalLM", kv{"hidden_size", nil}, ErrInvalid, "hidden_size: missing"},
		{"missing layers", "LlamaForCausalLM", kv{"num_hidden_layers", nil}, ErrInvalid, "num_hidden_layers: missing"},
		{"hidden_size string", "LlamaForCausalLM", kv{"hidden_size", "256"}, ErrInvalid, "hidden_size: want an integer"},
		{"hidden_size fraction", "LlamaForCausalLM", kv{"hidden_size", 255.5}, ErrInvalid, "hidden_size: want an integer"},
		{"hidden_size negative", "LlamaForCausalLM", kv{"hidden_size", -256, "head_dim", 32}, ErrInvalid, "hidden size -256"},
		{"hidden_size huge", "LlamaForCausalLM", kv{"hidden_size", 1 << 40, "head_dim", 32}, ErrInvalid, "hidden size"},
		{"hidden_size beyond int", "LlamaForCausalLM", kv{"hidden_size", 1e300}, ErrInvalid, "hidden_size: want an integer"},
		{"zero heads", "LlamaForCausalLM", kv{"num_attention_heads", 0}, ErrInvalid, "attention heads 0"},
		{"heads not divisible", "LlamaForCausalLM", kv{"num_key_value_heads", 3}, ErrInvalid, "not a multiple of 3 KV heads"},
		{"more kv than heads", "LlamaForCausalLM", kv{"num_key_value_heads", 16}, ErrInvalid, "KV heads 16"},
		{"hidden not multiple of heads", "LlamaForCausalLM", kv{"num_attention_heads", 7, "num_key_value_heads", 7}, ErrInvalid, "not a multiple of num_attention_heads"},
		{"odd head_dim", "LlamaForCausalLM", kv{"head_dim", 33}, ErrInvalid, "must be even"},
		{"vocab huge", "LlamaForCausalLM", kv{"vocab_size", 1e12}, ErrInvalid, "vocab size"},
		{"context zero", "LlamaForCausalLM", kv{"max_position_embeddings", 0}, ErrInvalid, "context length 0"},
		{"kv cache too large", "LlamaForCausalLM", kv{"num_hidden_layers", 1024, "num_attention_heads", 1024, "num_key_value_heads", 1024, "head_dim", 2048}, ErrInvalid, "KV cache elements"},
		{"eps zero", "LlamaForCausalLM", kv{"rms_norm_eps", 0}, ErrInvalid, "rms_norm_eps 0"},
		{"theta negative", "LlamaForCausalLM", kv{"rope_theta", -1}, ErrInvalid, "rope theta"},
		{"partial rotary", "Phi3ForCausalLM", kv{"partial_rotary_factor", 2}, ErrInvalid, "partial_rotary_factor"},
		{"eos negative", "LlamaForCausalLM", kv{"eos_token_id", []int{2, -1}}, ErrInvalid, "eos_token_id"},
		{"eos strings", "LlamaForCausalLM", kv{"eos_token_id", []string{"</s>"}}, ErrInvalid, "eos_token_id"},
		{"bos list", "LlamaForCausalLM", kv{"bos_token_id", []int{1, 2}}, ErrInvalid, "want one token id"},
		{"rope dynamic", "LlamaForCausalLM", kv{"rope_scaling", map[string]any{"type": "dynamic", "factor": 2.0}}, ErrUnsupported, `"dynamic"`},
		{"rope not object", "LlamaForCausalLM", kv{"rope_scaling", 2}, ErrInvalid, "rope_scaling"},
		{"linear no factor", "LlamaForCausalLM", kv{"rope_scaling", map[string]any{"type": "linear"}}, ErrInvalid, "rope_scaling.factor: missing"},
		{"linear zero factor", "LlamaForCausalLM", kv{"rope_scaling", map[string]any{"type": "linear", "factor": 0}}, ErrInvalid, "factor 0"},
		{"llama3 missing key", "LlamaForCausalLM", kv{"rope_scaling", map[string]any{"rope_type": "llama3", "factor": 8.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}, ErrInvalid, "rope_scaling.low_freq_factor: missing"},
		{"llama3 low above high", "LlamaForCausalLM", kv{"rope_scaling", map[string]any{"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 4.0, "high_freq_factor": 1.0, "original_max_position_embeddings": 8192}}, ErrInvalid, "low_freq_factor < high_freq_factor"},
		{"longrope short list", "Phi3ForCausalLM", kv{"rope_scaling", map[string]any{"type": "longrope", "short_factor": []float64{1}, "long_factor": []float64{1}}}, ErrInvalid, "need 16 values"},
		{"quant no bits", "LlamaForCausalLM", kv{"quantization", map[string]any{"group_size": 64}}, ErrInvalid, "needs group_size and bits"},
		{"quant bits 9", "LlamaForCausalLM", kv{"quantization", map[string]any{"group_size": 64, "bits": 9}}, ErrInvalid, "bits 9"},
		{"gptq", "LlamaForCausalLM", kv{"quantization_config", map[string]any{"quant_method": "gptq", "bits": 4, "group_size": 128}}, ErrUnsupported, `"gptq"`},
		{"layer_types irregular", "Gemma3ForCausalLM", kv{"head_dim", 32, "layer_types", []string{"full_attention", "sliding_attention", "sliding_attention", "full_attention"}}, ErrUnsupported, "layer 1"},
		{"layer_types length", "Gemma3ForCausalLM", kv{"head_dim", 32, "layer_types", []string{"full_attention"}}, ErrInvalid, "1 entries for 4 layers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromHFJSON(cfg(t, tt.arch, tt.keys...))
			checkErr(t, err, tt.want, tt.msg)
		})
	}
}

func TestFromHFJSONNotObject(t *testing.T) {
	for _, text := range []string{"", "[]", "null", `"x"`, "{", `{"a":1}}`} {
		_, err := FromHFJSON([]byte(text))
		checkErr(t, err, ErrInvalid, "not a JSON object")
	}
}

func TestFromHFDirErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := FromHFDir(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing config.json: %v", err)
	}
	path := filepath.Join(dir, "config.json")
	if err := os.WriteFile(path, []byte(`{"architectures": ["LlamaForCausalLM"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := FromHFDir(dir)
	checkErr(t, err, ErrInvalid, path+": ")
	big := append([]byte(`{"x": "`), make([]byte, maxConfigSize)...)
	if err := os.WriteFile(path, big, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = FromHFDir(dir)
	checkErr(t, err, ErrInvalid, "larger than")
}

func checkErr(t *testing.T, err, want error, msg string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("got %v, want %v", err, want)
	}
	if !strings.Contains(err.Error(), msg) {
		t.Fatalf("error %q does not say %q", err, msg)
	}
}

// TestLongNamesInErrors checks that errors quote at most a short piece of a
// long name from config.json.
func TestLongNamesInErrors(t *testing.T) {
	long := strings.Repeat("n", 1<<20)
	for name, data := range map[string][]byte{
		"architecture": cfg(t, long),
		"model_type":   cfg(t, "LlamaForCausalLM", "architectures", nil, "model_type", long),
		"rope type":    cfg(t, "LlamaForCausalLM", "rope_scaling", map[string]any{"rope_type": long}),
		"quant method": cfg(t, "LlamaForCausalLM", "quantization_config", map[string]any{"quant_method": long}),
		"quant mode":   cfg(t, "LlamaForCausalLM", "quantization", map[string]any{"group_size": 0, "bits": 4, "mode": long}),
		"layer type":   cfg(t, "Gemma3ForCausalLM", "layer_types", []string{long, long, long, long}),
		"wrong type":   cfg(t, "LlamaForCausalLM", "hidden_act", []string{long}),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := FromHFJSON(data)
			if err == nil || len(err.Error()) > 1000 {
				t.Fatalf("got an error of %d bytes: %.300v", len(fmt.Sprint(err)), err)
			}
		})
	}
}
