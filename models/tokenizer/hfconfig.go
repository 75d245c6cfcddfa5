package tokenizer

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// hfConfig is the part of tokenizer_config.json that changes encoding.
type hfConfig struct {
	AddBOS       *bool    `json:"add_bos_token"`
	AddEOS       *bool    `json:"add_eos_token"`
	BOS          tokenRef `json:"bos_token"`
	EOS          tokenRef `json:"eos_token"`
	UNK          tokenRef `json:"unk_token"`
	PAD          tokenRef `json:"pad_token"`
	SplitSpecial bool     `json:"split_special_tokens"`
}

// tokenRef is a special token given as a string or as {"content": ...}.
type tokenRef struct {
	content string
	set     bool
}

func (r *tokenRef) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null":
		return nil
	case len(b) > 0 && b[0] == '"':
		r.set = true
		return json.Unmarshal(b, &r.content)
	}
	var obj struct {
		Content string `json:"content"`
	}
	if err := json.Unmarshal(b, &obj); err != nil {
		return err
	}
	r.content, r.set = obj.Content, true
	return nil
}

func parseConfig(data []byte, name string) (*hfConfig, error) {
	var c hfConfig
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrFormat, err)
	}
	return &c, nil
}

// lookup finds a token by its text among the added tokens and the model.
func (s *spec) lookup(content string) (int, bool) {
	for _, a := range s.added {
		if a.content == content {
			return a.id, true
		}
	}
	id, ok := s.model.vocab[content]
	return int(id), ok
}

// apply sets the special tokens named in the config and makes BOS/EOS
// addition follow add_bos_token / add_eos_token when they are given.
func (c *hfConfig) apply(s *spec) {
	set := func(dst *int, r tokenRef) {
		if r.set {
			*dst = -1
			if id, ok := s.lookup(r.content); ok {
				*dst = id
			}
		}
	}
	set(&s.bos, c.BOS)
	set(&s.eos, c.EOS)
	set(&s.unk, c.UNK)
	set(&s.pad, c.PAD)
	s.splitSpecial = c.SplitSpecial
	if c.AddBOS != nil {
		has := len(s.prefix) > 0 && s.prefix[0] == s.bos
		switch {
		case *c.AddBOS && !has && s.bos >= 0:
			s.prefix = append([]int{s.bos}, s.prefix...)
		case !*c.AddBOS && has:
			s.prefix = s.prefix[1:]
		}
	}
	if c.AddEOS != nil {
		n := len(s.suffix)
		has := n > 0 && s.suffix[n-1] == s.eos
		switch {
		case *c.AddEOS && !has && s.eos >= 0:
			s.suffix = append(s.suffix, s.eos)
		case !*c.AddEOS && has:
			s.suffix = s.suffix[:n-1]
		}
	}
}
