package tokenizer

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/mlxrun/mlx/models/gguf"
)

// gpt2Spec is byte-level BPE: the split regexes of the pre-tokenizer name,
// then ByteLevel, merges by rank, and the ByteLevel decoder.
func (v *ggufVocab) gpt2Spec(f *gguf.File) (*spec, error) {
	name, ok := f.String("tokenizer.ggml.pre")
	if !ok || name == "" {
		name = "default"
	}
	pre, ok := ggufPres[name]
	if !ok {
		return nil, fmt.Errorf("%s: %w: tokenizer.ggml.pre %.80q", v.name, ErrUnsupported, name)
	}
	m, err := v.rankedBPE(f)
	if err != nil {
		return nil, err
	}
	m.ignoreMerges = pre.ignoreMerges
	s := &spec{source: v.name, model: m, added: v.addedTokens(), bos: -1, eos: -1, unk: -1, pad: -1,
		dec: byteLevelDecoder{}, decForm: map[int]string{}, size: len(v.tokens)}
	for _, rx := range pre.regexes {
		mt, err := newPatternMatcher(rx)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", v.name, err)
		}
		s.pre = append(s.pre, &splitPre{m: mt, b: isolated})
	}
	s.pre = append(s.pre, newByteLevelPre(false, false))
	// Added tokens are stored as plain text; decode them as such.
	for _, a := range s.added {
		s.decForm[a.id] = byteLevelEncode(a.content)
	}
	v.addBOS = pre.addBOS
	return s, nil
}

// rankedBPE is a BPE model with the merges of tokenizer.ggml.merges,
// ranked in file order.
func (v *ggufVocab) rankedBPE(f *gguf.File) (*bpe, error) {
	merges, ok := f.Strings("tokenizer.ggml.merges")
	if !ok {
		return nil, fmt.Errorf("%s: %w: no tokenizer.ggml.merges", v.name, ErrFormat)
	}
	m := newBPE(v.vocab)
	m.byID = v.tokens
	m.merges = make(map[uint64]uint64, len(merges))
	for rank, line := range merges {
		// The first space after the first byte separates the two tokens.
		i := strings.IndexByte(line[min(1, len(line)):], ' ') + 1
		if i <= 0 {
			continue
		}
		// Merges whose tokens are missing cannot apply; skip them as
		// llama.cpp does.
		_ = addMergeText(m, line[:i], line[i+1:], rank)
	}
	return m, nil
}

// gemma4Spec is the BPE of Gemma 4: over UTF-8 text rather than the
// byte-level alphabet, spaces become ▁, the text splits into runs of
// newlines and runs of other characters, pieces merge by rank, and
// characters missing from the vocabulary fall back to <0xXX> tokens.
func (v *ggufVocab) gemma4Spec(f *gguf.File) (*spec, error) {
	m, err := v.rankedBPE(f)
	if err != nil {
		return nil, err
	}
	m.byteFallback = true
	lines, err := newPatternMatcher(`[^\n]+|[\n]+`)
	if err != nil {
		return nil, err
	}
	s := &spec{source: v.name, model: m, added: v.addedTokens(), bos: -1, eos: -1, unk: -1, pad: -1,
		size: len(v.tokens), norm: replace{m: literalMatcher{" "}, content: meta},
		pre: []preTokenizer{&splitPre{m: lines, b: isolated}},
		dec: decSequence{replaceDec{replace{m: literalMatcher{meta}, content: " "}}, byteFallbackDec{}, fuseDec{}}}
	v.addBOS = true
	return s, nil
}

// spmSpec is SentencePiece BPE: spaces become ▁ (with one in front of
// every text segment when add_space_prefix is set), pieces merge by score,
// unknown characters fall back to <0xXX> byte tokens.
func (v *ggufVocab) spmSpec(f *gguf.File) (*spec, error) {
	if v.scores == nil {
		return nil, fmt.Errorf("%s: %w: SentencePiece vocabulary without tokenizer.ggml.scores", v.name, ErrFormat)
	}
	addPrefix := true
	if b, ok := f.Bool("tokenizer.ggml.add_space_prefix"); ok {
		addPrefix = b
	}
	m := newBPE(v.vocab)
	m.byteFallback, m.fuseUnk = true, true
	if err := v.scoreMerges(m); err != nil {
		return nil, err
	}
	s := &spec{source: v.name, model: m, added: v.addedTokens(), bos: v.idOr(1), eos: v.idOr(2),
		unk: v.idOr(0), pad: -1, size: len(v.tokens)}
	space := replace{m: literalMatcher{" "}, content: "▁"}
	dec := decSequence{replaceDec{replace{m: literalMatcher{"▁"}, content: " "}}, byteFallbackDec{}, fuseDec{}}
	if addPrefix {
		s.norm = normSequence{prepend{"▁"}, space}
		dec = append(dec, stripDec{content: " ", start: 1})
	} else {
		s.norm = space
	}
	s.dec = dec
	v.addBOS = true
	return s, nil
}

// idOr returns id when the vocabulary has it, else -1.
func (v *ggufVocab) idOr(id int) int {
	if id < len(v.tokens) {
		return id
	}
	return -1
}

// maxMergeWork bounds the bytes scoreMerges hashes (the sum of the squared
// piece lengths): real vocabularies need a few tens of millions (Llama 2:
// 1.7M), a hostile file with long pieces could need hours.
const maxMergeWork = 1 << 32

// scoreMerges derives BPE merges from SentencePiece scores the way Hugging
// Face's converter does: two adjacent pieces merge when their concatenation
// is a normal token. Merges rank by the score of that token (highest
// first), then by the length in runes of the left and of the right part
// (longest first), then by the token id and the ids of the parts.
func (v *ggufVocab) scoreMerges(m *bpe) error {
	type cand struct {
		score    float32
		nl, nr   int
		id, l, r int32
	}
	var work uint64
	for _, tok := range v.tokens {
		work += uint64(len(tok)) * uint64(len(tok))
	}
	if work > maxMergeWork {
		return fmt.Errorf("%s: %w: tokenizer.ggml.tokens: pieces too long to derive merges from (%d bytes to hash, limit %d)",
			v.name, ErrFormat, work, uint64(maxMergeWork))
	}
	var all []cand
	for id, tok := range v.tokens {
		if t := v.typ(id); t != ggufNormal && t != 0 {
			continue
		}
		for i := 1; i < len(tok); i++ {
			if !utf8.RuneStart(tok[i]) {
				continue
			}
			a, okA := v.vocab[tok[:i]]
			b, okB := v.vocab[tok[i:]]
			if okA && okB {
				all = append(all, cand{v.scores[id], utf8.RuneCountInString(tok[:i]),
					utf8.RuneCountInString(tok[i:]), int32(id), a, b})
			}
		}
	}
	sort.Slice(all, func(i, j int) bool {
		x, y := all[i], all[j]
		switch {
		case x.score != y.score:
			return x.score > y.score
		case x.nl != y.nl:
			return x.nl > y.nl
		case x.nr != y.nr:
			return x.nr > y.nr
		case x.id != y.id:
			return x.id < y.id
		case x.l != y.l:
			return x.l < y.l
		}
		return x.r < y.r
	})
	m.merges = make(map[uint64]uint64, len(all))
	for rank, c := range all {
		m.addMerge(c.l, c.r, c.id, rank)
	}
	return nil
}
