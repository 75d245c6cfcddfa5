package tokenizer

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// noMerge is the rank word of a pair that has no merge.
const noMerge = ^uint64(0)

// bpe is a byte-pair-encoding model: a vocabulary, ranked merges, and the
// options of Hugging Face's BPE model.
type bpe struct {
	vocab map[string]int32
	// merges maps a pair of ids (left<<32 | right) to rank<<32 | merged id.
	merges       map[uint64]uint64
	unk          int32 // -1 when there is none
	fuseUnk      bool
	byteFallback bool
	ignoreMerges bool
	// longest makes the model WordPiece: the longest token of at most
	// maxLen bytes at each position (after the first, contPrefix and the
	// text), no merges; a word of more than maxWordRunes (when not 0) is
	// the unknown token.
	longest      bool
	maxLen       int
	maxWordRunes int
	contPrefix   string
	wordSuffix   string
	byteToken    [256]int32 // ids of the <0xXX> tokens, -1 when absent

	// rawBytes is set when the last pre-tokenizer is ByteLevel: pieces then
	// arrive as raw bytes and rawByte[b] is the id of b's byte-level rune.
	rawBytes bool
	rawByte  [256]int32
	rawVocab map[string]int32 // raw-byte spelling of the tokens, for ignoreMerges

	// metaSplit is set when no token has a ▁ right after another rune: a
	// word can then be cut before every such ▁ without changing the result,
	// which keeps SentencePiece-style words (whole text segments) short.
	metaSplit bool

	cache wordCache

	// uni makes the model SentencePiece's unigram (nil for BPE and
	// WordPiece): the vocabulary's ids scored, no merges.
	uni *unigram

	// Loading only: scratch for merged tokens, the tokens by id, and the
	// distance between merge ranks and the ids of the merged tokens.
	buf         []byte
	byID        []string
	mergeOffset int
}

func newBPE(vocab map[string]int32) *bpe {
	m := &bpe{vocab: vocab, merges: map[uint64]uint64{}, unk: -1}
	for b := range m.byteToken {
		id, ok := vocab[fmt.Sprintf("<0x%02X>", b)]
		if !ok {
			id = -1
		}
		m.byteToken[b] = id
	}
	m.cache.init()
	return m
}

func pairKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// addMerge records that the pair (a, b) merges into id at the given rank.
// A pair listed twice keeps its last rank, as Hugging Face does.
func (m *bpe) addMerge(a, b, id int32, rank int) {
	m.merges[pairKey(a, b)] = uint64(rank)<<32 | uint64(uint32(id))
}

// enableRawBytes switches the model to raw-byte input; it requires the
// byte-level alphabet and no subword prefix or suffix.
func (m *bpe) enableRawBytes() {
	if m.contPrefix != "" || m.wordSuffix != "" {
		return
	}
	if m.ignoreMerges {
		m.rawVocab = make(map[string]int32, len(m.vocab))
		for tok, id := range m.vocab {
			if raw, ok := byteLevelDecode(tok); ok && raw != "" {
				m.rawVocab[raw] = id
			}
		}
	}
	for b := range m.rawByte {
		id, ok := m.vocab[byteChar[b]]
		if !ok {
			id = -1
		}
		m.rawByte[b] = id
	}
	m.rawBytes = true
}

const meta = "▁"

// setMetaSplit decides whether words may be cut before inner ▁ runes.
func (m *bpe) setMetaSplit() {
	if _, ok := m.vocab[meta]; !ok || m.rawBytes {
		return
	}
	for tok := range m.vocab {
		if cutBefore(tok) < len(tok) {
			return
		}
	}
	m.metaSplit = true
}

// cutBefore returns the index of the first ▁ that follows another rune
// than ▁, or len(s).
func cutBefore(s string) int {
	for i := 1; i < len(s); {
		j := strings.Index(s[i:], meta)
		if j < 0 {
			break
		}
		if p := i + j; !strings.HasSuffix(s[:p], meta) {
			return p
		}
		i += j + len(meta)
	}
	return len(s)
}

// encode appends the ids of one pre-tokenized word.
func (m *bpe) encode(dst []int32, word string, sc *scratch) []int32 {
	if word == "" {
		return dst
	}
	if m.uni != nil {
		return m.uni.encode(dst, word, m.vocab, m.unk)
	}
	if m.metaSplit && len(word) > cacheMaxWord/4 {
		for word != "" {
			cut := cutBefore(word)
			dst = m.encodeWord(dst, word[:cut], sc)
			word = word[cut:]
		}
		return dst
	}
	return m.encodeWord(dst, word, sc)
}

// encodeWord appends the ids of a word that merges may span.
func (m *bpe) encodeWord(dst []int32, word string, sc *scratch) []int32 {
	if m.longest {
		return m.encodeLongest(dst, word)
	}
	if len(word) == 1 && m.rawBytes && m.rawByte[word[0]] >= 0 {
		return append(dst, m.rawByte[word[0]])
	}
	if m.ignoreMerges {
		if id, ok := m.whole(word); ok {
			return append(dst, id)
		}
	}
	if ids, ok := m.cache.get(word); ok {
		return append(dst, ids...)
	}
	syms := m.symbols(sc.syms[:0], word)
	syms = m.merge(syms, sc)
	sc.syms = syms
	m.cache.put(word, syms)
	return append(dst, syms...)
}

// whole looks the entire word up in the vocabulary.
func (m *bpe) whole(word string) (int32, bool) {
	if m.rawBytes {
		id, ok := m.rawVocab[word]
		return id, ok
	}
	id, ok := m.vocab[word]
	return id, ok
}

// symbols returns the initial symbols of word: one per rune (or per byte in
// raw mode), with byte fallback and unknown-token handling.
func (m *bpe) symbols(syms []int32, word string) []int32 {
	u := unkRun{m: m}
	if m.rawBytes {
		for i := 0; i < len(word); i++ {
			if id := m.rawByte[word[i]]; id >= 0 {
				syms = u.flush(syms)
				syms = append(syms, id)
				continue
			}
			syms = m.unknown(syms, byteChar[word[i]], &u)
		}
		return u.flush(syms)
	}
	for i := 0; i < len(word); {
		_, n := utf8.DecodeRuneInString(word[i:])
		s := word[i : i+n]
		if i > 0 && m.contPrefix != "" {
			s = m.contPrefix + s
		}
		if i+n == len(word) && m.wordSuffix != "" {
			s += m.wordSuffix
		}
		i += n
		if id, ok := m.vocab[s]; ok {
			syms = u.flush(syms)
			syms = append(syms, id)
			continue
		}
		syms = m.unknown(syms, s, &u)
	}
	return u.flush(syms)
}

// unknown handles a symbol s missing from the vocabulary: its bytes when
// byte fallback covers them all, else the unknown token, else nothing.
func (m *bpe) unknown(syms []int32, s string, u *unkRun) []int32 {
	if m.byteFallback {
		ok := true
		for i := 0; i < len(s); i++ {
			ok = ok && m.byteToken[s[i]] >= 0
		}
		if ok {
			// Hugging Face emits the bytes before a pending unknown token.
			for i := 0; i < len(s); i++ {
				syms = append(syms, m.byteToken[s[i]])
			}
			return syms
		}
	}
	if m.unk >= 0 {
		if !m.fuseUnk {
			syms = u.flush(syms)
		}
		u.pending = true
	}
	return syms
}

// unkRun holds an unknown token not yet emitted, so that fuse_unk can fold
// a run of unknown symbols into one.
type unkRun struct {
	m       *bpe
	pending bool
}

func (u *unkRun) flush(syms []int32) []int32 {
	if u.pending {
		u.pending = false
		syms = append(syms, u.m.unk)
	}
	return syms
}
