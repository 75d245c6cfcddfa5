package tokenizer

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// hfFile is the part of tokenizer.json that encoding and decoding need.
type hfFile struct {
	AddedTokens   []hfAddedToken
	Normalizer    json.RawMessage
	PreTokenizer  json.RawMessage
	PostProcessor json.RawMessage
	Decoder       json.RawMessage
	Model         hfModel
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
	Type                    string  `json:"type"`
	UnkToken                *string `json:"unk_token"`
	FuseUnk                 bool    `json:"fuse_unk"`
	ByteFallback            bool    `json:"byte_fallback"`
	IgnoreMerges            bool    `json:"ignore_merges"`
	ContinuingSubwordPrefix *string `json:"continuing_subword_prefix"`
	EndOfWordSuffix         *string `json:"end_of_word_suffix"`
	MaxInputCharsPerWord    *int    `json:"max_input_chars_per_word"`
	UnkID                   *int    `json:"unk_id"`
	Vocab, Merges           []byte  `json:"-"`
}

// decodeHF splits tokenizer.json into its parts. The vocabulary and merges
// stay raw for the fast scanner; the rest goes through encoding/json.
func decodeHF(data []byte) (*hfFile, error) {
	top, err := (&jscan{b: data}).fields()
	if err != nil {
		return nil, err
	}
	f := &hfFile{Normalizer: top["normalizer"], PreTokenizer: top["pre_tokenizer"],
		PostProcessor: top["post_processor"], Decoder: top["decoder"]}
	if raw := top["added_tokens"]; raw != nil {
		if err := json.Unmarshal(raw, &f.AddedTokens); err != nil {
			return nil, fmt.Errorf("%w: added_tokens: %v", ErrFormat, err)
		}
	}
	raw := top["model"]
	if raw == nil {
		return nil, fmt.Errorf("%w: no model", ErrFormat)
	}
	model, err := (&jscan{b: raw}).fields()
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	f.Model.Vocab, f.Model.Merges = model["vocab"], model["merges"]
	delete(model, "vocab")
	delete(model, "merges")
	small, _ := json.Marshal(model)
	if err := json.Unmarshal(small, &f.Model); err != nil {
		return nil, fmt.Errorf("%w: model: %v", ErrFormat, err)
	}
	return f, nil
}

// maxVocab bounds the ids a file may use, so a corrupt id cannot make us
// allocate gigabytes.
const maxVocab = 1 << 24

// parseHF builds a Tokenizer from the bytes of a tokenizer.json; name is
// used in errors, cfg may be nil.
func parseHF(data []byte, name string, cfg *hfConfig) (*Tokenizer, error) {
	f, err := decodeHF(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
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
			return nil, fmt.Errorf("%w: added token %.80q has id %d", ErrFormat, a.Content, a.ID)
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
	if s.prefix, s.suffix, s.pairTpl, err = parsePost(f.PostProcessor); err != nil {
		return nil, err
	}
	return s, nil
}

// bpe builds the model part.
func (hm *hfModel) bpe() (*bpe, error) {
	if hm.Type != "" && hm.Type != "BPE" && hm.Type != "WordPiece" && hm.Type != "Unigram" {
		return nil, fmt.Errorf("%w: model type %.80q (BPE, WordPiece and Unigram are implemented)", ErrUnsupported, hm.Type)
	}
	if len(bytes.TrimSpace(hm.Vocab)) == 0 {
		return nil, fmt.Errorf("%w: model.vocab is missing", ErrFormat)
	}
	if hm.Type == "Unigram" {
		return hm.unigram()
	}
	vocab, err := parseVocab(hm.Vocab)
	if err != nil {
		return nil, err
	}
	if hm.Type == "WordPiece" {
		return hm.wordPiece(vocab)
	}
	m := newBPE(vocab)
	m.byID = indexByID(vocab)
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
			return nil, fmt.Errorf("%w: unk_token %.80q is not in the vocabulary", ErrFormat, *hm.UnkToken)
		}
		m.unk = id
	}
	// A merge has at least two quotes and takes about 12 bytes ("ab c", );
	// the hint stays below the file's size even when quotes are escaped.
	m.merges = make(map[uint64]uint64, min(bytes.Count(hm.Merges, []byte(`"`))/2, len(hm.Merges)/12))
	err = parseMerges(hm.Merges, func(rank int, a, b []byte) error {
		return addMergeText(m, a, b, rank)
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// addMergeText adds the merge of two tokens given by their text.
func addMergeText[T string | []byte](m *bpe, a, b T, rank int) error {
	ia, oka := m.vocab[string(a)]
	ib, okb := m.vocab[string(b)]
	m.buf = append(append(m.buf[:0], a...), b[min(len(m.contPrefix), len(b)):]...)
	id, ok := m.guessMerged(rank)
	if !ok {
		id, ok = m.vocab[string(m.buf)]
		m.mergeOffset = int(id) - rank
	}
	if !oka || !okb || !ok {
		return fmt.Errorf("%w: merge %d (%.80q %.80q): token not in the vocabulary", ErrFormat, rank, a, b)
	}
	m.addMerge(ia, ib, id, rank)
	return nil
}

// guessMerged checks whether the token m.buf has the id rank+mergeOffset.
// Vocabularies are usually stored in merge order, so this replaces most
// hash lookups (random memory accesses) by a sequential comparison.
func (m *bpe) guessMerged(rank int) (int32, bool) {
	g := rank + m.mergeOffset
	if g >= 0 && g < len(m.byID) && m.byID[g] == string(m.buf) {
		return int32(g), true
	}
	return 0, false
}

// indexByID returns the tokens by id ("" for unused ids), or nil when the
// ids are too sparse for a table (build refuses such a vocabulary).
func indexByID(vocab map[string]int32) []string {
	n := 0
	for _, id := range vocab {
		n = max(n, int(id)+1)
	}
	if n > maxDenseSize(len(vocab)) {
		return nil
	}
	byID := make([]string, n)
	for tok, id := range vocab {
		byID[id] = tok
	}
	return byID
}
