package tokenizer

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// component is a tagged tokenizer.json object ({"type": ..., ...}).
type component struct {
	Type string `json:"type"`
	raw  json.RawMessage
}

// parseComponent reads the type of a component; ok is false for null.
func parseComponent(raw json.RawMessage, what string) (c component, ok bool, err error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return c, false, nil
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return c, false, fmt.Errorf("%w: %s: %v", ErrFormat, what, err)
	}
	c.raw = raw
	return c, true, nil
}

// fields decodes the component's other fields into v.
func (c component) fields(v any, what string) error {
	if err := json.Unmarshal(c.raw, v); err != nil {
		return fmt.Errorf("%w: %s %s: %v", ErrFormat, what, c.Type, err)
	}
	return nil
}

// hfPattern is the {"String": ...} or {"Regex": ...} of Split and Replace.
type hfPattern struct {
	String *string `json:"String"`
	Regex  *string `json:"Regex"`
}

func (p hfPattern) matcher() (matcher, error) {
	switch {
	case p.String != nil:
		return literalMatcher{*p.String}, nil
	case p.Regex != nil:
		return newPatternMatcher(*p.Regex)
	}
	return nil, fmt.Errorf("%w: pattern without String or Regex", ErrFormat)
}

func parseNormalizer(raw json.RawMessage) (normalizer, error) {
	c, ok, err := parseComponent(raw, "normalizer")
	if !ok || err != nil {
		return nil, err
	}
	var f struct {
		Normalizers []json.RawMessage `json:"normalizers"`
		StripLeft   bool              `json:"strip_left"`
		StripRight  bool              `json:"strip_right"`
		Prepend     string            `json:"prepend"`
		Pattern     hfPattern         `json:"pattern"`
		Content     string            `json:"content"`
		Charsmap    *string           `json:"precompiled_charsmap"`
		CleanText   *bool             `json:"clean_text"`
		Chinese     *bool             `json:"handle_chinese_chars"`
		Accents     *bool             `json:"strip_accents"`
		Lowercase   *bool             `json:"lowercase"`
	}
	if err := c.fields(&f, "normalizer"); err != nil {
		return nil, err
	}
	switch c.Type {
	case "Sequence":
		var seq normSequence
		for _, r := range f.Normalizers {
			n, err := parseNormalizer(r)
			if err != nil {
				return nil, err
			}
			if n != nil {
				seq = append(seq, n)
			}
		}
		return seq, nil
	case "NFC":
		return unicodeNorm{norm.NFC}, nil
	case "NFD":
		return unicodeNorm{norm.NFD}, nil
	case "NFKC":
		return unicodeNorm{norm.NFKC}, nil
	case "NFKD":
		return unicodeNorm{norm.NFKD}, nil
	case "Lowercase":
		return lowercase{}, nil
	case "Strip":
		return strip{left: f.StripLeft, right: f.StripRight}, nil
	case "StripAccents":
		return stripAccents{}, nil
	case "Prepend":
		return prepend{f.Prepend}, nil
	case "ByteLevel":
		return byteLevelNorm{}, nil
	case "Replace":
		m, err := f.Pattern.matcher()
		if err != nil {
			return nil, err
		}
		return replace{m: m, content: f.Content}, nil
	case "BertNormalizer":
		orTrue := func(b *bool) bool { return b == nil || *b }
		n := bertNorm{clean: orTrue(f.CleanText), chinese: orTrue(f.Chinese), lowercase: orTrue(f.Lowercase)}
		n.stripAccents = n.lowercase
		if f.Accents != nil {
			n.stripAccents = *f.Accents
		}
		return n, nil
	case "Precompiled":
		if f.Charsmap == nil || *f.Charsmap == "" {
			return nil, nil
		}
		b, err := base64.StdEncoding.DecodeString(*f.Charsmap)
		if err != nil {
			return nil, fmt.Errorf("%w: precompiled_charsmap: %v", ErrFormat, err)
		}
		m, err := parseCharsmap(b)
		if err != nil {
			return nil, err
		}
		return charsmapNorm{m}, nil
	}
	return nil, fmt.Errorf("%w: normalizer type %.80q", ErrUnsupported, c.Type)
}

func parsePreTokenizer(raw json.RawMessage) ([]preTokenizer, error) {
	c, ok, err := parseComponent(raw, "pre_tokenizer")
	if !ok || err != nil {
		return nil, err
	}
	var f struct {
		PreTokenizers  []json.RawMessage `json:"pretokenizers"`
		Pattern        hfPattern         `json:"pattern"`
		Behavior       string            `json:"behavior"`
		Invert         bool              `json:"invert"`
		AddPrefixSpace *bool             `json:"add_prefix_space"`
		UseRegex       *bool             `json:"use_regex"`
		Individual     bool              `json:"individual_digits"`
		Replacement    string            `json:"replacement"`
		PrependScheme  string            `json:"prepend_scheme"`
		Split          *bool             `json:"split"`
		Delimiter      string            `json:"delimiter"`
	}
	if err := c.fields(&f, "pre_tokenizer"); err != nil {
		return nil, err
	}
	one := func(p preTokenizer) ([]preTokenizer, error) { return []preTokenizer{p}, nil }
	switch c.Type {
	case "Sequence":
		var seq []preTokenizer
		for _, r := range f.PreTokenizers {
			p, err := parsePreTokenizer(r)
			if err != nil {
				return nil, err
			}
			seq = append(seq, p...)
		}
		return seq, nil
	case "Split":
		m, err := f.Pattern.matcher()
		if err != nil {
			return nil, err
		}
		b, err := parseBehavior(f.Behavior, isolated)
		if err != nil {
			return nil, err
		}
		return one(&splitPre{m: m, b: b, invert: f.Invert})
	case "ByteLevel":
		return one(newByteLevelPre(f.AddPrefixSpace == nil || *f.AddPrefixSpace, f.UseRegex == nil || *f.UseRegex))
	case "Digits":
		return one(newDigitsPre(f.Individual))
	case "Metaspace":
		m, err := newMetaspace(f.Replacement, f.PrependScheme, f.AddPrefixSpace)
		if err != nil {
			return nil, err
		}
		return one(&metaspacePre{repl: m.repl, scheme: m.scheme, split: f.Split == nil || *f.Split})
	case "Whitespace":
		return one(newWhitespacePre())
	case "WhitespaceSplit":
		return one(newWhitespaceSplitPre())
	case "BertPreTokenizer":
		return one(bertPre{})
	case "Punctuation":
		b, err := parseBehavior(f.Behavior, isolated)
		if err != nil {
			return nil, err
		}
		return one(newPunctuationPre(b))
	case "CharDelimiterSplit":
		r, n := utf8.DecodeRuneInString(f.Delimiter)
		if n == 0 || n != len(f.Delimiter) {
			return nil, fmt.Errorf("%w: CharDelimiterSplit delimiter %.80q is not one character", ErrFormat, f.Delimiter)
		}
		return one(newCharDelimiterPre(r))
	}
	return nil, fmt.Errorf("%w: pre_tokenizer type %.80q", ErrUnsupported, c.Type)
}

func parseBehavior(s string, def behavior) (behavior, error) {
	if s == "" {
		return def, nil
	}
	b, ok := behaviorNames[s]
	if !ok {
		return 0, fmt.Errorf("%w: split behavior %.80q", ErrFormat, s)
	}
	return b, nil
}

// newMetaspace checks the replacement and scheme shared by the Metaspace
// pre-tokenizer and decoder.
func newMetaspace(repl, scheme string, addPrefixSpace *bool) (metaspaceDec, error) {
	if utf8.RuneCountInString(repl) != 1 {
		return metaspaceDec{}, fmt.Errorf("%w: Metaspace replacement %.80q is not one character", ErrFormat, repl)
	}
	ps, err := parsePrependScheme(scheme, addPrefixSpace)
	return metaspaceDec{repl: repl, scheme: ps}, err
}
