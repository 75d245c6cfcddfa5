package chat

import (
	"encoding/json"
	"fmt"

	"github.com/mlxrun/mlx/models/chat/jinja"
)

// SpecialTokens are the tokens transformers passes to a chat template
// (its special_tokens_map). An empty string means the token is not set and
// is not passed, so the template sees it undefined.
type SpecialTokens struct {
	BOS, EOS, UNK, SEP, PAD, CLS, Mask string
	// Additional is additional_special_tokens; nil means not set.
	Additional []string
}

// set adds the tokens that are set to the template variables.
func (t SpecialTokens) set(d *jinja.Dict) {
	for _, kv := range t.pairs() {
		if kv.v != "" {
			d.Set(kv.k, jinja.String(kv.v))
		}
	}
	if t.Additional != nil {
		items := make([]jinja.Value, len(t.Additional))
		for i, s := range t.Additional {
			items[i] = jinja.String(s)
		}
		d.Set("additional_special_tokens", jinja.List(items...))
	}
}

type tokenPair struct{ k, v string }

func (t SpecialTokens) pairs() []tokenPair {
	return []tokenPair{{"bos_token", t.BOS}, {"eos_token", t.EOS}, {"unk_token", t.UNK},
		{"sep_token", t.SEP}, {"pad_token", t.PAD}, {"cls_token", t.CLS}, {"mask_token", t.Mask}}
}

func (t *SpecialTokens) field(key string) *string {
	switch key {
	case "bos_token":
		return &t.BOS
	case "eos_token":
		return &t.EOS
	case "unk_token":
		return &t.UNK
	case "sep_token":
		return &t.SEP
	case "pad_token":
		return &t.PAD
	case "cls_token":
		return &t.CLS
	case "mask_token":
		return &t.Mask
	}
	return nil
}

// Merge returns t with every token that is set in o replacing t's.
func (t SpecialTokens) Merge(o SpecialTokens) SpecialTokens {
	for _, kv := range o.pairs() {
		if kv.v != "" {
			*t.field(kv.k) = kv.v
		}
	}
	if o.Additional != nil {
		t.Additional = o.Additional
	}
	return t
}

// tokenText reads a token written as a string or as an AddedToken object
// {"content": ...}; null is not set.
func tokenText(raw json.RawMessage) (string, error) {
	var s *string
	if err := json.Unmarshal(raw, &s); err == nil {
		if s == nil {
			return "", nil
		}
		return *s, nil
	}
	var obj struct {
		Content *string `json:"content"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil || obj.Content == nil {
		return "", fmt.Errorf("token is neither a string nor an object with content: %.80s", raw)
	}
	return *obj.Content, nil
}

// tokensFromConfig reads the special tokens of a tokenizer_config.json or
// special_tokens_map.json object.
func tokensFromConfig(cfg map[string]json.RawMessage) (SpecialTokens, error) {
	var t SpecialTokens
	for _, kv := range t.pairs() {
		raw, ok := cfg[kv.k]
		if !ok {
			continue
		}
		s, err := tokenText(raw)
		if err != nil {
			return t, fmt.Errorf("%s: %w", kv.k, err)
		}
		*t.field(kv.k) = s
	}
	if raw, ok := cfg["additional_special_tokens"]; ok && string(raw) != "null" {
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return t, fmt.Errorf("additional_special_tokens is not a list: %w", err)
		}
		t.Additional = make([]string, 0, len(items))
		for i, it := range items {
			s, err := tokenText(it)
			if err != nil {
				return t, fmt.Errorf("additional_special_tokens[%d]: %w", i, err)
			}
			t.Additional = append(t.Additional, s)
		}
	}
	return t, nil
}
