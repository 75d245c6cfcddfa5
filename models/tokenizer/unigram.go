package tokenizer

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/mlxrun/mlx/models/gguf"
)

// unigram is SentencePiece's unigram model (XLM-RoBERTa, T5): the
// tokenization of a text is the one whose tokens' scores (log
// probabilities) add up to the most, found by Viterbi over the text's
// bytes one rune at a time. A rune no token starts with becomes the
// unknown token, scored unkScore; unknown tokens in a row are one.
type unigram struct {
	scores   []float64 // by id; NaN for tokens never matched in text (control, unknown, byte)
	maxLen   int       // bytes of the longest token
	unkScore float64
}

// unkPenalty is how much less than the least score of a token an unknown
// rune scores, as SentencePiece sets it.
const unkPenalty = 10

// newUnigram returns the model of a vocabulary: its scores by id and which
// ids the text may match (normal, user-defined and unused tokens; the
// user-defined ones score 0).
func newUnigram(tokens []string, scores []float32, typ func(id int) int64) *unigram {
	u := &unigram{scores: make([]float64, len(tokens))}
	least := math.Inf(1)
	for id, tok := range tokens {
		switch typ(id) {
		case ggufNormal:
			u.scores[id] = float64(scores[id])
			least = min(least, u.scores[id])
		case ggufUserDefined:
			u.scores[id] = 0
		case ggufUnused:
			u.scores[id] = float64(scores[id])
		default:
			u.scores[id] = math.NaN()
			continue
		}
		u.maxLen = max(u.maxLen, len(tok))
	}
	if math.IsInf(least, 1) {
		least = 0
	}
	u.unkScore = least - unkPenalty
	return u
}

// step is the best tokenization of a text's prefix: its last token, where
// that token starts and the prefix's score.
type step struct {
	id    int32
	start int
	score float64
}

// encode appends the ids of s, tokens looked up in vocab, unk for what
// matches nothing.
func (u *unigram) encode(dst []int32, s string, vocab map[string]int32, unk int32) []int32 {
	n := len(s)
	if n == 0 {
		return dst
	}
	best := make([]step, n+1)
	for i := 1; i <= n; i++ {
		best[i] = step{id: unk, score: math.Inf(-1)}
	}
	for i := 0; i < n; {
		_, size := utf8.DecodeRuneInString(s[i:])
		whole := false
		for j := i + 1; j <= min(n, i+u.maxLen); j++ {
			id, ok := vocab[s[i:j]]
			if !ok || int(id) >= len(u.scores) || math.IsNaN(u.scores[id]) {
				continue
			}
			whole = whole || j-i == size
			if sc := best[i].score + u.scores[id]; sc > best[j].score {
				best[j] = step{id: id, start: i, score: sc}
			}
		}
		if !whole {
			if sc := best[i].score + u.unkScore; sc > best[i+size].score {
				best[i+size] = step{id: unk, start: i, score: sc}
			}
		}
		i += size
	}
	first := len(dst)
	for at, prevUnk := n, false; at > 0; at = best[at].start {
		isUnk := best[at].id == unk
		if !(prevUnk && isUnk) && best[at].id >= 0 { // without an unknown token, what matches nothing goes
			dst = append(dst, best[at].id)
		}
		prevUnk = isUnk
	}
	for i, j := first, len(dst)-1; i < j; i, j = i+1, j-1 {
		dst[i], dst[j] = dst[j], dst[i]
	}
	return dst
}

// charsmap is SentencePiece's precompiled normalisation map: a trie of
// input byte sequences (a XOR-compressed compact double array of packed
// 32-bit nodes) whose leaves index replacement strings, each ended by a
// zero byte.
type charsmap struct {
	nodes []uint32
	repl  []byte
}

// parseCharsmap reads a precompiled charsmap: the trie's size in bytes
// (little-endian uint32), the trie, then the replacements.
func parseCharsmap(b []byte) (*charsmap, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("%w: precompiled charsmap of %d bytes", ErrFormat, len(b))
	}
	size := binary.LittleEndian.Uint32(b)
	if size%4 != 0 || uint64(size) > uint64(len(b)-4) {
		return nil, fmt.Errorf("%w: precompiled charsmap trie of %d bytes in %d", ErrFormat, size, len(b))
	}
	m := &charsmap{nodes: make([]uint32, size/4), repl: b[4+size:]}
	for i := range m.nodes {
		m.nodes[i] = binary.LittleEndian.Uint32(b[4+4*i:])
	}
	return m, nil
}

// node returns node i, and false past the end of the trie.
func (m *charsmap) node(i uint32) (uint32, bool) {
	if int(i) >= len(m.nodes) {
		return 0, false
	}
	return m.nodes[i], true
}

// base returns the BASE of a packed node.
func base(n uint32) uint32 { return (n >> 10) << ((n & (1 << 9)) >> 6) }

// match returns the replacement of the longest prefix of s the map has,
// and that prefix's length; 0 when none matches.
func (m *charsmap) match(s string) (string, int) {
	root, ok := m.node(0)
	if !ok {
		return "", 0
	}
	idx := base(root)
	length, value := 0, uint32(0)
	for k := 0; k < len(s) && s[k] != 0; k++ {
		c := uint32(s[k])
		idx ^= c
		n, ok := m.node(idx)
		if !ok || n&(1<<31|0xff) != c {
			break
		}
		leaf := n>>8&1 == 1
		idx ^= base(n)
		if leaf {
			v, ok := m.node(idx)
			if !ok {
				break
			}
			length, value = k+1, v&(1<<31-1)
		}
	}
	if length == 0 || int(value) >= len(m.repl) {
		return "", 0
	}
	r := m.repl[value:]
	end := 0
	for end < len(r) && r[end] != 0 {
		end++
	}
	if end == len(r) {
		return "", 0 // unterminated: taken as no match
	}
	return string(r[:end]), length
}

// spmNorm is SentencePiece's normaliser as llama.cpp runs it for unigram
// vocabularies: the charsmap's replacements (runes it has none for kept),
// then spaces written ▁; with merge, every run of spaces is one ▁ before
// the next word and none is kept at the ends; with prepend, the text
// starts with ▁.
type spmNorm struct {
	m              *charsmap // nil: no replacements
	prepend, merge bool
}

func (n spmNorm) normalize(s string) string {
	if n.m != nil {
		s = n.m.apply(s)
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/2)
	prepended, inWord := false, false
	for k := 0; k < len(s); k++ {
		if c := s[k]; c != ' ' {
			if !inWord {
				inWord = true
				if n.prepend && !prepended || n.merge {
					b.WriteString(meta)
					prepended = true
				}
			}
			b.WriteByte(c)
		} else {
			inWord = false
			if !n.merge {
				b.WriteString(meta)
			}
		}
	}
	return b.String()
}

// charsmapGrowth bounds how many times longer a charsmap makes text: as
// much as NFKC (which real charsmaps hold), and no more whatever the
// file's replacements are.
const charsmapGrowth = 11

// apply replaces the longest prefix the map has at each place, keeping
// the runes it has none for, and stops before the text grows more than
// charsmapGrowth times (only a hostile charsmap gets there).
func (m *charsmap) apply(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		repl, used := m.match(s[i:])
		if used == 0 {
			_, used = utf8.DecodeRuneInString(s[i:])
			repl = s[i : i+used]
		}
		if b.Len()+len(repl) > charsmapGrowth*len(s) {
			break
		}
		b.WriteString(repl)
		i += used
	}
	return b.String()
}

// charsmapNorm is Hugging Face's Precompiled normaliser: the charsmap's
// replacements alone.
type charsmapNorm struct{ m *charsmap }

func (n charsmapNorm) normalize(s string) string { return n.m.apply(s) }

// ugmSpec is the unigram model as llama.cpp's converter stores it
// (tokenizer.ggml.model "t5": XLM-RoBERTa, T5): tokens with scores and
// types, the precompiled charsmap, add_space_prefix and
// remove_extra_whitespaces. Text gets EOS after it, and BOS before it
// when the file asks.
func (v *ggufVocab) ugmSpec(f *gguf.File) (*spec, error) {
	if v.scores == nil {
		return nil, fmt.Errorf("%s: %w: unigram vocabulary without tokenizer.ggml.scores", v.name, ErrFormat)
	}
	norm := spmNorm{prepend: true}
	if b, ok := f.Bool("tokenizer.ggml.add_space_prefix"); ok {
		norm.prepend = b
	}
	norm.merge, _ = f.Bool("tokenizer.ggml.remove_extra_whitespaces")
	if raw, ok := f.Ints("tokenizer.ggml.precompiled_charsmap"); ok && len(raw) > 0 {
		b := make([]byte, len(raw))
		for i, x := range raw {
			b[i] = byte(x)
		}
		var err error
		if norm.m, err = parseCharsmap(b); err != nil {
			return nil, fmt.Errorf("%s: %w", v.name, err)
		}
	}
	m := newBPE(v.vocab)
	m.uni = newUnigram(v.tokens, v.scores, v.typ)
	v.addEOS = true
	return &spec{source: v.name, model: m, added: v.addedTokens(), bos: -1, eos: v.idOr(1),
		unk: v.idOr(2), pad: v.idOr(0), size: len(v.tokens), norm: norm,
		dec: decSequence{replaceDec{replace{m: literalMatcher{meta}, content: " "}}, fuseDec{}, stripDec{content: " ", start: 1}}}, nil
}
