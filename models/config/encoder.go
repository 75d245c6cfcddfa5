package config

import (
	"maps"
	"strings"
)

// withAliases returns the config's keys with the family's aliases read as
// the standard keys they stand for (Family.Aliases); f itself when the
// family has none.
func withAliases(f fields, fam *Family) fields {
	if len(fam.Aliases) == 0 {
		return f
	}
	out := maps.Clone(f)
	for _, a := range fam.Aliases {
		if _, ok := out[a[1]]; !ok {
			if v, ok := f[a[0]]; ok && string(v) != "null" {
				out[a[1]] = v
			}
		}
	}
	return out
}

// hfEncoder reads an encoder's keys: LayerNorm epsilon, token types, the
// position offset of RoBERTa (whose first pad_token_id+1 position rows
// are never used, so the context is that much shorter) and the labels of
// a sequence-classification head.
func hfEncoder(r *reader, fam *Family, name string, m *Model) {
	if !fam.Encoder {
		return
	}
	m.Encoder = true
	m.RMSNormEps = float32(r.float("layer_norm_eps", r.float("layer_norm_epsilon", fam.Eps)))
	m.TypeVocab = r.int("type_vocab_size", 2)
	if fam.PosOffset {
		m.PosOffset = r.int("pad_token_id", 1) + 1
		if m.PosOffset < 0 || m.PosOffset >= m.ContextLength {
			r.fail("pad_token_id", "%d leaves no position of %d", m.PosOffset-1, m.ContextLength)
		}
		m.ContextLength -= m.PosOffset
	}
	if strings.HasSuffix(name, "ForSequenceClassification") {
		var labels map[string]string
		m.Labels = 1
		if r.decode("id2label", &labels, "an object of labels") && len(labels) > 0 {
			m.Labels = len(labels)
		}
	}
}

// ggufEncoder reads an encoder's keys: the LayerNorm epsilon and the token
// types (tokenizer.ggml.token_type_count, as llama.cpp's converter writes
// it). The classifier's labels are read for every family (ggufLabels).
func ggufEncoder(g *ggufReader, m *Model) {
	m.Encoder = true
	m.RMSNormEps = g.float("attention.layer_norm_epsilon", 0, true)
	if v, ok := g.f.Uint("tokenizer.ggml.token_type_count"); ok {
		m.TypeVocab = int(min(v, maxTypes+1))
	}
}
