package config

import (
	"errors"
	"testing"
)

// TestFromHFJSONEncoders reads the configs of NomicBERT (GPT-2 style key
// names, read through the family's aliases) and of an XLM-RoBERTa
// cross-encoder (positions offset by pad_token_id+1, one label).
func TestFromHFJSONEncoders(t *testing.T) {
	nomic := `{"architectures": ["NomicBertModel"], "n_embd": 64, "n_layer": 2, "n_head": 4, "n_inner": 96,
		"n_positions": 8192, "max_trained_positions": 2048, "layer_norm_epsilon": 1e-12, "rotary_emb_base": 1000,
		"type_vocab_size": 2, "vocab_size": 30528}`
	m, err := FromHFJSON([]byte(nomic))
	if err != nil {
		t.Fatal(err)
	}
	if !m.Encoder || m.HiddenSize != 64 || m.Layers != 2 || m.Heads != 4 || m.FFNSize != 96 || m.ContextLength != 2048 ||
		m.RopeTheta != 1000 || m.RMSNormEps != 1e-12 || m.TypeVocab != 2 || m.HiddenAct != "swiglu" || m.Labels != 0 {
		t.Errorf("nomic-bert read as %+v", m)
	}
	xlmr := cfg(t, "XLMRobertaForSequenceClassification", "max_position_embeddings", 514, "pad_token_id", 1,
		"layer_norm_eps", 1e-5, "type_vocab_size", 1, "id2label", map[string]string{"0": "LABEL_0"}, "rms_norm_eps", nil)
	if m, err = FromHFJSON(xlmr); err != nil {
		t.Fatal(err)
	}
	if !m.Encoder || m.PosOffset != 2 || m.ContextLength != 512 || m.Labels != 1 || m.TypeVocab != 1 || m.RMSNormEps != 1e-5 {
		t.Errorf("xlm-roberta read as offset %d, context %d, labels %d, types %d, eps %g",
			m.PosOffset, m.ContextLength, m.Labels, m.TypeVocab, m.RMSNormEps)
	}
	bad := cfg(t, "XLMRobertaModel", "max_position_embeddings", 4, "pad_token_id", 7)
	if _, err := FromHFJSON(bad); !errors.Is(err, ErrInvalid) {
		t.Errorf("a pad_token_id past the positions gave %v", err)
	}
	if _, err := FromHFJSON(cfg(t, "XLMRobertaModel", "type_vocab_size", 1<<20)); !errors.Is(err, ErrInvalid) {
		t.Errorf("a million token types gave %v", err)
	}
}
