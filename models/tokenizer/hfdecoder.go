package tokenizer

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

func parseDecoder(raw json.RawMessage) (decoder, error) {
	c, ok, err := parseComponent(raw, "decoder")
	if !ok || err != nil {
		return nil, err
	}
	var f struct {
		Decoders       []json.RawMessage `json:"decoders"`
		Pattern        hfPattern         `json:"pattern"`
		Content        string            `json:"content"`
		Start          int               `json:"start"`
		Stop           int               `json:"stop"`
		Replacement    string            `json:"replacement"`
		PrependScheme  string            `json:"prepend_scheme"`
		AddPrefixSpace *bool             `json:"add_prefix_space"`
		Suffix         *string           `json:"suffix"`
		Prefix         *string           `json:"prefix"`
		Cleanup        *bool             `json:"cleanup"`
	}
	if err := c.fields(&f, "decoder"); err != nil {
		return nil, err
	}
	switch c.Type {
	case "Sequence":
		var seq decSequence
		for _, r := range f.Decoders {
			d, err := parseDecoder(r)
			if err != nil {
				return nil, err
			}
			if d != nil {
				seq = append(seq, d)
			}
		}
		return seq, nil
	case "ByteLevel":
		return byteLevelDecoder{}, nil
	case "ByteFallback":
		return byteFallbackDec{}, nil
	case "Fuse":
		return fuseDec{}, nil
	case "Strip":
		if utf8.RuneCountInString(f.Content) != 1 || f.Start < 0 || f.Stop < 0 {
			return nil, fmt.Errorf("%w: Strip decoder content %.80q start %d stop %d", ErrFormat, f.Content, f.Start, f.Stop)
		}
		return stripDec{content: f.Content, start: f.Start, stop: f.Stop}, nil
	case "Replace":
		m, err := f.Pattern.matcher()
		if err != nil {
			return nil, err
		}
		return replaceDec{replace{m: m, content: f.Content}}, nil
	case "Metaspace":
		return newMetaspace(f.Replacement, f.PrependScheme, f.AddPrefixSpace)
	case "WordPiece":
		d := wordPieceDec{prefix: "##", cleanup: f.Cleanup == nil || *f.Cleanup}
		if f.Prefix != nil {
			d.prefix = *f.Prefix
		}
		return d, nil
	case "BPEDecoder":
		suffix := "</w>"
		if f.Suffix != nil {
			suffix = *f.Suffix
		}
		return bpeSuffixDec{suffix}, nil
	}
	return nil, fmt.Errorf("%w: decoder type %.80q", ErrUnsupported, c.Type)
}

// parsePost reads the post-processor: the ids it puts before and after a
// single sequence, and how it frames a pair of texts (nil when it has no
// pair template): TemplateProcessing's pair template, RobertaProcessing's
// <s> A </s></s> B </s> or BertProcessing's [CLS] A [SEP] B [SEP].
func parsePost(raw json.RawMessage) (prefix, suffix []int, pair []pairPart, err error) {
	c, ok, err := parseComponent(raw, "post_processor")
	if !ok || err != nil {
		return nil, nil, nil, err
	}
	var f struct {
		Processors    []json.RawMessage                `json:"processors"`
		Single        []map[string]struct{ ID string } `json:"single"`
		Pair          []map[string]struct{ ID string } `json:"pair"`
		SpecialTokens map[string]struct{ IDs []int }   `json:"special_tokens"`
		Cls           []any                            `json:"cls"`
		Sep           []any                            `json:"sep"`
	}
	if err := c.fields(&f, "post_processor"); err != nil {
		return nil, nil, nil, err
	}
	switch c.Type {
	case "ByteLevel":
		return nil, nil, nil, nil
	case "Sequence":
		for _, r := range f.Processors {
			p, s, pp, err := parsePost(r)
			if err != nil {
				return nil, nil, nil, err
			}
			prefix = append(p, prefix...)
			suffix = append(suffix, s...)
			if pp != nil {
				pair = pp
			}
		}
		return prefix, suffix, pair, nil
	case "TemplateProcessing":
		if prefix, suffix, err = parseTemplate(f.Single, f.SpecialTokens); err != nil {
			return nil, nil, nil, err
		}
		pair, err = parsePairTemplate(f.Pair, f.SpecialTokens)
		return prefix, suffix, pair, err
	case "RobertaProcessing", "BertProcessing":
		cls, err1 := tokenPairID(f.Cls)
		sep, err2 := tokenPairID(f.Sep)
		if err1 != nil || err2 != nil {
			return nil, nil, nil, fmt.Errorf("%w: %s cls/sep must be [token, id]", ErrFormat, c.Type)
		}
		return []int{cls}, []int{sep}, bertPair(cls, sep, c.Type == "RobertaProcessing"), nil
	}
	return nil, nil, nil, fmt.Errorf("%w: post_processor type %.80q", ErrUnsupported, c.Type)
}

// parseTemplate reads TemplateProcessing's single template.
func parseTemplate(single []map[string]struct{ ID string }, specials map[string]struct{ IDs []int }) (prefix, suffix []int, err error) {
	seen := false
	for _, item := range single {
		if _, ok := item["Sequence"]; ok {
			seen = true
			continue
		}
		st, ok := item["SpecialToken"]
		if !ok {
			return nil, nil, fmt.Errorf("%w: template item %v", ErrFormat, item)
		}
		sp, ok := specials[st.ID]
		if !ok {
			return nil, nil, fmt.Errorf("%w: template special token %.80q is not in special_tokens", ErrFormat, st.ID)
		}
		for _, id := range sp.IDs {
			if id < 0 || id >= maxVocab {
				return nil, nil, fmt.Errorf("%w: template special token %.80q has id %d", ErrFormat, st.ID, id)
			}
		}
		if seen {
			suffix = append(suffix, sp.IDs...)
		} else {
			prefix = append(prefix, sp.IDs...)
		}
	}
	return prefix, suffix, nil
}

// tokenPairID reads the id of a ["token", id] pair.
func tokenPairID(pair []any) (int, error) {
	if len(pair) != 2 {
		return 0, ErrFormat
	}
	f, ok := pair[1].(float64)
	if !ok || f < 0 || f >= maxVocab || f != float64(int(f)) {
		return 0, ErrFormat
	}
	return int(f), nil
}
