package tokenizer

import (
	"fmt"

	"github.com/mlxrun/mlx/models/gguf"
)

// GGUF token types (tokenizer.ggml.token_type).
const (
	ggufNormal      = 1
	ggufUnknown     = 2
	ggufControl     = 3
	ggufUserDefined = 4
	ggufUnused      = 5
	ggufByte        = 6
)

// LoadGGUF reads the tokenizer stored in a GGUF file's metadata.
func LoadGGUF(path string) (*Tokenizer, error) {
	f, err := gguf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	defer f.Close()
	return FromGGUF(f)
}

// ggufVocab is the tokenizer.ggml.* metadata.
type ggufVocab struct {
	name   string
	model  string
	tokens []string
	types  []int64
	scores []float32
	vocab  map[string]int32
	// addBOS is llama.cpp's default when tokenizer.ggml.add_bos_token is absent.
	addBOS bool
	// addSEP ends the text with the separator token (BERT).
	addSEP bool
	// addEOS ends the text with EOS unless the file says otherwise
	// (unigram vocabularies).
	addEOS bool
}

// FromGGUF builds the tokenizer described by the tokenizer.ggml.* metadata
// of f: model "gpt2" (byte-level BPE with the split patterns named by
// tokenizer.ggml.pre) or "llama" (SentencePiece BPE with scores and byte
// fallback).
func FromGGUF(f *gguf.File) (*Tokenizer, error) {
	v, err := readGGUFVocab(f)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	var s *spec
	switch v.model {
	case "gpt2":
		s, err = v.gpt2Spec(f)
	case "llama":
		s, err = v.spmSpec(f)
	case "gemma4":
		s, err = v.gemma4Spec(f)
	case "bert":
		s = v.bertSpec(f)
	case "t5":
		s, err = v.ugmSpec(f)
	default:
		err = fmt.Errorf("%s: %w: tokenizer.ggml.model %.80q (supported: gpt2, llama, gemma4, bert, t5)", v.name, ErrUnsupported, v.model)
	}
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	v.specials(f, s)
	if v.model == "llama" || v.model == "bert" || v.model == "t5" {
		s.model.unk = int32(s.unk) // SentencePiece, WordPiece and unigram fall back to it
	}
	t, err := build(s)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	return t, nil
}

func readGGUFVocab(f *gguf.File) (*ggufVocab, error) {
	v := &ggufVocab{name: f.Path}
	var ok bool
	if v.model, ok = f.String("tokenizer.ggml.model"); !ok {
		return nil, fmt.Errorf("%s: %w: no tokenizer.ggml.model", v.name, ErrFormat)
	}
	if v.tokens, ok = f.Strings("tokenizer.ggml.tokens"); !ok || len(v.tokens) == 0 {
		return nil, fmt.Errorf("%s: %w: no tokenizer.ggml.tokens", v.name, ErrFormat)
	}
	n := len(v.tokens)
	if n > maxVocab {
		return nil, fmt.Errorf("%s: %w: %d tokens", v.name, ErrFormat, n)
	}
	if v.types, ok = f.Ints("tokenizer.ggml.token_type"); ok && len(v.types) < n {
		return nil, fmt.Errorf("%s: %w: %d token types for %d tokens", v.name, ErrFormat, len(v.types), n)
	}
	if v.scores, ok = f.Floats("tokenizer.ggml.scores"); ok && len(v.scores) < n {
		return nil, fmt.Errorf("%s: %w: %d scores for %d tokens", v.name, ErrFormat, len(v.scores), n)
	}
	v.vocab = make(map[string]int32, n)
	for i, tok := range v.tokens {
		if tok == "" {
			tok = fmt.Sprintf("[EMPTY_%d]", i)
			v.tokens[i] = tok
		}
		if _, dup := v.vocab[tok]; !dup {
			v.vocab[tok] = int32(i)
		}
	}
	return v, nil
}

// typ returns the token type of id (normal when the file has none).
func (v *ggufVocab) typ(id int) int64 {
	if v.types == nil {
		return ggufNormal
	}
	return v.types[id]
}

// addedTokens returns the control, user-defined and unknown-type tokens,
// which are matched in the text before the model sees it.
func (v *ggufVocab) addedTokens() []addedToken {
	var out []addedToken
	for id, tok := range v.tokens {
		switch t := v.typ(id); t {
		case ggufControl, ggufUserDefined, ggufUnknown:
			out = append(out, addedToken{content: tok, id: id, special: t != ggufUserDefined})
		}
	}
	return out
}

// specials reads the special token ids and the BOS/EOS flags.
func (v *ggufVocab) specials(f *gguf.File, s *spec) {
	id := func(key string, def int) int {
		if u, ok := f.Uint(key); ok && u < uint64(len(v.tokens)) {
			return int(u)
		}
		return def
	}
	s.bos = id("tokenizer.ggml.bos_token_id", s.bos)
	s.eos = id("tokenizer.ggml.eos_token_id", s.eos)
	s.unk = id("tokenizer.ggml.unknown_token_id", s.unk)
	s.pad = id("tokenizer.ggml.padding_token_id", s.pad)
	s.eog = append(s.eog, id("tokenizer.ggml.eot_token_id", -1), id("tokenizer.ggml.eom_token_id", -1))
	for r, keys := range fimKeys {
		for _, k := range keys {
			if v := id(k, -1); v >= 0 {
				if s.fim == nil {
					s.fim = map[fimRole]int{}
				}
				s.fim[fimRole(r)] = v
			}
		}
	}
	addBOS := v.addBOS
	if b, ok := f.Bool("tokenizer.ggml.add_bos_token"); ok && !v.addSEP {
		addBOS = b
	}
	// WordPiece frames the text with [CLS] and [SEP] whatever the flags
	// say, as llama.cpp does: converters write add_eos_token for BERT
	// vocabularies whose EOS is [SEP], which must not come twice.
	addEOS := v.addEOS
	if b, ok := f.Bool("tokenizer.ggml.add_eos_token"); ok {
		addEOS = b
	}
	s.pair = &pairRule{eos: s.eos, sep: id("tokenizer.ggml.seperator_token_id", -1), addEOS: addEOS, addSEP: v.addSEP}
	if b, ok := f.Bool("tokenizer.ggml.add_sep_token"); ok {
		s.pair.addSEP = b
	}
	addEOS = addEOS && !v.addSEP
	s.prefix, s.suffix = nil, nil
	if addBOS && s.bos >= 0 {
		s.prefix = []int{s.bos}
	}
	if addEOS && s.eos >= 0 {
		s.suffix = []int{s.eos}
	}
	if sep := id("tokenizer.ggml.seperator_token_id", -1); v.addSEP && sep >= 0 {
		s.suffix = append(s.suffix, sep)
	}
}
