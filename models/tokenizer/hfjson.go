package tokenizer

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// hfFile is the part of tokenizer.json that encoding and decoding need.
type hfFile struct {
	AddedTokens   []hfAddedToken  `json:"added_tokens"`
	Normalizer    json.RawMessage `json:"normalizer"`
	PreTokenizer  json.RawMessage `json:"pre_tokenizer"`
	PostProcessor json.RawMessage `json:"post_processor"`
	Decoder       json.RawMessage `json:"decoder"`
	Model         hfModel         `json:"model"`
}

type hfAddedToken struct {
	ID         int    `json:"id"`
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	Lstrip     bool   `json:"lstrip"`
	Rstrip     bool   `json:"rstrip"`
	Normalized bool   `json:"normalized"`
	Special    bool   `json:"special"`
}

type hfModel struct {
	Type                    string          `json:"type"`
	Vocab                   json.RawMessage `json:"vocab"`
	Merges                  json.RawMessage `json:"merges"`
	UnkToken                *string         `json:"unk_token"`
	FuseUnk                 bool            `json:"fuse_unk"`
	ByteFallback            bool            `json:"byte_fallback"`
	IgnoreMerges            bool            `json:"ignore_merges"`
	ContinuingSubwordPrefix *string         `json:"continuing_subword_prefix"`
	EndOfWordSuffix         *string         `json:"end_of_word_suffix"`
}

// maxVocab bounds the ids a file may use, so a corrupt id cannot make us
// allocate gigabytes.
const maxVocab = 1 << 24

// parseHF builds a Tokenizer from the bytes of a tokenizer.json; name is
// used in errors, cfg may be nil.
func parseHF(data []byte, name string, cfg *hfConfig) (*Tokenizer, error) {
	var f hfFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrFormat, err)
	}
	s, err := f.spec()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s.source = name
	if cfg != nil {
		cfg.apply(s)
	}
	return build(s)
}

func (f *hfFile) spec() (*spec, error) {
	m, err := f.Model.bpe()
	if err != nil {
		return nil, err
	}
	s := &spec{model: m, bos: -1, eos: -1, unk: int(m.unk), pad: -1}
	for _, a := range f.AddedTokens {
		if a.ID < 0 || a.ID >= maxVocab {
			return nil, fmt.Errorf("%w: added token %q has id %d", ErrFormat, a.Content, a.ID)
		}
		s.added = append(s.added, addedToken{content: a.Content, id: a.ID, singleWord: a.SingleWord,
			lstrip: a.Lstrip, rstrip: a.Rstrip, normalized: a.Normalized, special: a.Special})
	}
	if s.norm, err = parseNormalizer(f.Normalizer); err != nil {
		return nil, err
	}
	if s.pre, err = parsePreTokenizer(f.PreTokenizer); err != nil {
		return nil, err
	}
	if s.dec, err = parseDecoder(f.Decoder); err != nil {
		return nil, err
	}
	if s.prefix, s.suffix, err = parsePost(f.PostProcessor); err != nil {
		return nil, err
	}
	return s, nil
}

// bpe builds the model part.
func (hm *hfModel) bpe() (*bpe, error) {
	if hm.Type != "" && hm.Type != "BPE" {
		return nil, fmt.Errorf("%w: model type %q (only BPE is implemented)", ErrUnsupported, hm.Type)
	}
	if len(hm.Vocab) == 0 || hm.Vocab[0] != '{' {
		return nil, fmt.Errorf("%w: model.vocab is missing or not an object", ErrFormat)
	}
	var raw map[string]int
	if err := json.Unmarshal(hm.Vocab, &raw); err != nil {
		return nil, fmt.Errorf("%w: model.vocab: %v", ErrFormat, err)
	}
	vocab := make(map[string]int32, len(raw))
	for tok, id := range raw {
		if id < 0 || id >= maxVocab {
			return nil, fmt.Errorf("%w: vocab token %q has id %d", ErrFormat, tok, id)
		}
		vocab[tok] = int32(id)
	}
	m := newBPE(vocab)
	m.fuseUnk, m.byteFallback, m.ignoreMerges = hm.FuseUnk, hm.ByteFallback, hm.IgnoreMerges
	if hm.ContinuingSubwordPrefix != nil {
		m.contPrefix = *hm.ContinuingSubwordPrefix
	}
	if hm.EndOfWordSuffix != nil {
		m.wordSuffix = *hm.EndOfWordSuffix
	}
	if hm.UnkToken != nil {
		id, ok := vocab[*hm.UnkToken]
		if !ok {
			return nil, fmt.Errorf("%w: unk_token %q is not in the vocabulary", ErrFormat, *hm.UnkToken)
		}
		m.unk = id
	}
	pairs, err := parseMerges(hm.Merges)
	if err != nil {
		return nil, err
	}
	for rank, p := range pairs {
		if err := m.addMergeText(p[0], p[1], rank); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// addMergeText adds the merge of two tokens given by their text.
func (m *bpe) addMergeText(a, b string, rank int) error {
	ia, oka := m.vocab[a]
	ib, okb := m.vocab[b]
	merged := a + b[min(len(m.contPrefix), len(b)):]
	id, ok := m.vocab[merged]
	if !oka || !okb || !ok {
		return fmt.Errorf("%w: merge %d (%q %q): token not in the vocabulary", ErrFormat, rank, a, b)
	}
	m.addMerge(ia, ib, id, rank)
	return nil
}

// parseMerges reads merges written as "a b" strings or as [a, b] pairs.
func parseMerges(raw json.RawMessage) ([][2]string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var pairs [][2]string
	if err := json.Unmarshal(raw, &pairs); err == nil {
		return pairs, nil
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		return nil, fmt.Errorf("%w: model.merges is neither strings nor pairs", ErrFormat)
	}
	pairs = make([][2]string, 0, len(lines))
	for i, l := range lines {
		a, b, ok := splitMerge(l)
		if !ok {
			return nil, fmt.Errorf("%w: merge %d %q is not two tokens separated by a space", ErrFormat, i, l)
		}
		pairs = append(pairs, [2]string{a, b})
	}
	return pairs, nil
}

// splitMerge splits "a b" at its single space.
func splitMerge(l string) (string, string, bool) {
	i := bytes.IndexByte([]byte(l), ' ')
	if i < 0 || bytes.IndexByte([]byte(l[i+1:]), ' ') >= 0 {
		return "", "", false
	}
	return l[:i], l[i+1:], true
}
