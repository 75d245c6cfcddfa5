package config

import (
	"errors"
	"strings"
	"testing"
)

// qwen35 is registered alone: its defaults turn on the linear-attention keys.
func init() {
	Register(Family{Arch: "qwen35", HF: []string{"Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration"},
		ModelTypes: []string{"qwen3_5_text", "qwen3_5"}, GGUF: []string{"qwen35"},
		Vocab: 248320, Heads: 16, KVHeads: 4, HeadDim: 256, MaxPos: 262144, Eps: 1e-6, Theta: 1e7, Act: "silu", BOS: -1, EOS: -1,
		DeltaNet: &DeltaNet{KeyHeads: 16, KeyDim: 128, ValueHeads: 32, ValueDim: 128, ConvKernel: 4, Interval: 4}})
	Register(Family{Arch: "qwen35moe", HF: []string{"Qwen3_5MoeForConditionalGeneration"}, ModelTypes: []string{"qwen3_5_moe"},
		Vocab: 248320, Heads: 16, KVHeads: 2, HeadDim: 256, MaxPos: 262144, Eps: 1e-6, Theta: 1e7, Act: "silu", BOS: -1, EOS: -1,
		DeltaNet: &DeltaNet{KeyHeads: 16, KeyDim: 128, ValueHeads: 32, ValueDim: 128, ConvKernel: 4, Interval: 4},
		MoE:      MoE{Experts: 256, TopK: 8, FFNSize: 512, SharedFFNSize: 512, NormTopK: true, Step: 1}, AllSparse: true})
}

const hybridBase = `"architectures": ["Qwen3_5ForCausalLM"], "hidden_size": 64, "intermediate_size": 256,
	"num_hidden_layers": 4, "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 32`

// TestFromHFJSONDeltaNet reads the linear-attention shape and the layers
// it applies to, from layer_types or full_attention_interval.
func TestFromHFJSONDeltaNet(t *testing.T) {
	m, err := FromHFJSON([]byte(`{` + hybridBase + `, "linear_num_key_heads": 2, "linear_num_value_heads": 4,
		"linear_key_head_dim": 16, "linear_value_head_dim": 8, "linear_conv_kernel_dim": 3,
		"layer_types": ["linear_attention", "full_attention", "linear_attention", "full_attention"]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := DeltaNet{KeyHeads: 2, KeyDim: 16, ValueHeads: 4, ValueDim: 8, ConvKernel: 3, Interval: 2}
	if m.DeltaNet == nil || *m.DeltaNet != want {
		t.Fatalf("DeltaNet = %+v, want %+v", m.DeltaNet, want)
	}
	if d := m.DeltaNet; d.ConvDim() != 2*2*16+4*8 || d.StateElems() != 2*d.ConvDim()+4*16*8 {
		t.Errorf("ConvDim %d, StateElems %d", d.ConvDim(), d.StateElems())
	}
	for i, linear := range []bool{true, false, true, false} {
		if m.LayerLinear(i) != linear {
			t.Errorf("LayerLinear(%d) = %v, want %v", i, !linear, linear)
		}
	}
	m, err = FromHFJSON([]byte(`{` + hybridBase + `}`))
	if err != nil {
		t.Fatal(err)
	}
	if d := m.DeltaNet; d == nil || d.Interval != 4 || d.ValueHeads != 32 || !m.LayerLinear(2) || m.LayerLinear(3) {
		t.Errorf("defaults: DeltaNet %+v", d)
	}
	m, err = FromHFJSON([]byte(`{"architectures": ["Qwen3ForCausalLM"], "hidden_size": 64, "intermediate_size": 256, "num_hidden_layers": 4}`))
	if err != nil {
		t.Fatal(err)
	}
	if m.DeltaNet != nil || m.LayerLinear(0) {
		t.Errorf("qwen3: DeltaNet %+v, want none", m.DeltaNet)
	}
}

// TestFromHFJSONDeltaNetNested reads the text model of a multimodal
// Qwen3.5 checkpoint from its text_config.
func TestFromHFJSONDeltaNetNested(t *testing.T) {
	m, err := FromHFJSON([]byte(`{"architectures": ["Qwen3_5ForConditionalGeneration"], "model_type": "qwen3_5",
		"tie_word_embeddings": true, "text_config": {` + strings.Replace(hybridBase, `"architectures": ["Qwen3_5ForCausalLM"], `, "", 1) + `,
		"model_type": "qwen3_5_text", "linear_num_value_heads": 16, "rope_parameters": {"rope_type": "default",
		"rope_theta": 10000000, "partial_rotary_factor": 0.25, "mrope_section": [11, 11, 10], "mrope_interleaved": true}},
		"vision_config": {"hidden_size": 1024, "depth": 24}}`))
	if err != nil {
		t.Fatal(err)
	}
	if m.Arch != "qwen35" || m.DeltaNet == nil || m.DeltaNet.ValueHeads != 16 || m.RopeDim != 8 || m.RopeTheta != 1e7 ||
		m.RopeScaling.Type != "" || !m.TieEmbeddings {
		t.Errorf("got %+v, DeltaNet %+v", m, m.DeltaNet)
	}
}

// TestFromHFJSONDeltaNetMoE reads a Qwen3.5-MoE config, which has no
// intermediate_size: every layer is sparse.
func TestFromHFJSONDeltaNetMoE(t *testing.T) {
	m, err := FromHFJSON([]byte(`{"architectures": ["Qwen3_5MoeForConditionalGeneration"], "model_type": "qwen3_5_moe",
		"text_config": {"hidden_size": 2048, "num_hidden_layers": 40, "full_attention_interval": 4, "head_dim": 256,
		"num_attention_heads": 16, "num_key_value_heads": 2, "linear_num_value_heads": 32,
		"num_experts": 256, "num_experts_per_tok": 8, "moe_intermediate_size": 384, "shared_expert_intermediate_size": 512}}`))
	if err != nil {
		t.Fatal(err)
	}
	if m.FFNSize != 384 || m.MoE.Experts != 256 || m.MoE.SharedFFNSize != 512 || m.DeltaNet == nil || !m.LayerSparse(3) || !m.LayerLinear(0) {
		t.Errorf("got FFN %d, MoE %+v, DeltaNet %+v", m.FFNSize, m.MoE, m.DeltaNet)
	}
	if _, err := FromHFJSON([]byte(`{"architectures": ["Qwen3_5ForCausalLM"], "hidden_size": 64, "num_hidden_layers": 4}`)); err == nil ||
		!strings.Contains(err.Error(), "intermediate_size") {
		t.Errorf("dense config without intermediate_size: %v", err)
	}
}

// TestFromHFJSONDeltaNetBad refuses shapes the runtime cannot run.
func TestFromHFJSONDeltaNetBad(t *testing.T) {
	tests := []struct {
		extra    string
		sentinel error
		words    string
	}{
		{`"layer_types": ["linear_attention", "full_attention", "full_attention", "linear_attention"]`, ErrUnsupported, "regular"},
		{`"layer_types": ["linear_attention", "sliding_attention", "linear_attention", "full_attention"]`, ErrUnsupported, "layer 1"},
		{`"layer_types": ["linear_attention", "full_attention"]`, ErrInvalid, "2 entries for 4 layers"},
		{`"linear_num_key_heads": 3, "linear_num_value_heads": 4`, ErrInvalid, "not a multiple"},
		{`"linear_conv_kernel_dim": 0`, ErrInvalid, "convolution kernel"},
		{`"linear_key_head_dim": 100000`, ErrInvalid, "key head dimension"},
		{`"full_attention_interval": 0`, ErrInvalid, "interval"},
		{`"linear_num_value_heads": 1024, "linear_value_head_dim": 2048, "linear_num_key_heads": 1024, "linear_key_head_dim": 2048`,
			ErrInvalid, "recurrent state"},
	}
	for _, tt := range tests {
		_, err := FromHFJSON([]byte(`{` + hybridBase + `, ` + tt.extra + `}`))
		if !errors.Is(err, tt.sentinel) || err == nil || !strings.Contains(err.Error(), tt.words) {
			t.Errorf("%s: error %v, want %v mentioning %q", tt.extra, err, tt.sentinel, tt.words)
		}
	}
}

// qwen35KVs is the metadata llama.cpp's converter writes for a hybrid
// model of four layers, the fourth full attention.
func qwen35KVs(extra ...any) kvs {
	return set(llamaKVs("qwen35", "qwen35.ssm.conv_kernel", uint32(4), "qwen35.ssm.state_size", uint32(16),
		"qwen35.ssm.group_count", uint32(2), "qwen35.ssm.time_step_rank", uint32(4), "qwen35.ssm.inner_size", uint32(32),
		"qwen35.full_attention_interval", uint32(4), "qwen35.attention.recurrent_layers", []bool{true, true, true, false, false}),
		extra...)
}

// TestFromGGUFDeltaNet reads the linear-attention shape of a GGUF file
// (the recurrent-layer list may go on with MTP layers) and refuses one
// whose layers do not follow the interval.
func TestFromGGUFDeltaNet(t *testing.T) {
	m, err := FromGGUF(buildGGUF(t, qwen35KVs()))
	if err != nil {
		t.Fatal(err)
	}
	want := DeltaNet{KeyHeads: 2, KeyDim: 16, ValueHeads: 4, ValueDim: 8, ConvKernel: 4, Interval: 4}
	if m.DeltaNet == nil || *m.DeltaNet != want {
		t.Fatalf("DeltaNet = %+v, want %+v", m.DeltaNet, want)
	}
	m, err = FromGGUF(buildGGUF(t, qwen35KVs("qwen35.block_count", uint32(5), "qwen35.nextn_predict_layers", uint32(1))))
	if err != nil {
		t.Fatal(err)
	}
	if m.Layers != 4 {
		t.Errorf("with an MTP layer: %d layers, want 4", m.Layers)
	}
	for _, tt := range []struct {
		kvs      kvs
		sentinel error
	}{
		{qwen35KVs("qwen35.attention.recurrent_layers", []bool{true, false, true, false}), ErrUnsupported},
		{qwen35KVs("qwen35.attention.recurrent_layers", []bool{true}), ErrInvalid},
		{qwen35KVs("qwen35.ssm.inner_size", uint32(30)), ErrInvalid},
		{qwen35KVs("qwen35.ssm.conv_kernel", nil), ErrInvalid},
		{qwen35KVs("qwen35.ssm.group_count", uint32(3)), ErrInvalid},
	} {
		if _, err := FromGGUF(buildGGUF(t, tt.kvs)); !errors.Is(err, tt.sentinel) {
			t.Errorf("error %v, want %v", err, tt.sentinel)
		}
	}
}

// TestFromHFJSONMRope reads the multimodal RoPE of Qwen3.5 configs in
// either form, rope_scaling of type "mrope" (transformers 4) or sections
// beside rope_type "default": with text alone every section takes the
// same position, which is plain RoPE.
func TestFromHFJSONMRope(t *testing.T) {
	for _, scaling := range []string{`{"type": "mrope", "mrope_section": [2, 1, 1]}`,
		`{"rope_type": "default", "mrope_interleaved": true, "mrope_section": [2, 1, 1]}`} {
		m, err := FromHFJSON([]byte(`{` + hybridBase + `, "partial_rotary_factor": 0.25, "rope_theta": 1e7, "rope_scaling": ` + scaling + `}`))
		if err != nil {
			t.Fatalf("%s: %v", scaling, err)
		}
		if m.RopeScaling.Type != "" || m.RopeTheta != 1e7 || m.RopeDim != 8 {
			t.Errorf("%s: scaling %+v, theta %v, rotary dimensions %d", scaling, m.RopeScaling, m.RopeTheta, m.RopeDim)
		}
	}
}
