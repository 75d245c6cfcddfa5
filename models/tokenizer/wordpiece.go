package tokenizer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mlxrun/mlx/models/gguf"
	"golang.org/x/text/unicode/norm"
)

// bertSpec is WordPiece as llama.cpp stores BERT vocabularies: a token
// that starts a word begins with ▁ (where Hugging Face has none) and a
// continuation has no "##". Text is cleaned and split into words
// (wordPiecePre), each word becomes its longest matching tokens from left
// to right, and a word with a part that matches nothing becomes the
// unknown token. The text is framed by [CLS] and [SEP].
func (v *ggufVocab) bertSpec(f *gguf.File) *spec {
	lower, ok := f.Bool("tokenizer.ggml.normalizer.lowercase")
	if !ok {
		lower = true
	}
	strip, ok := f.Bool("tokenizer.ggml.normalizer.strip_accents")
	if !ok {
		strip = lower
	}
	m := newBPE(v.vocab)
	m.longest = true
	for tok := range v.vocab {
		m.maxLen = max(m.maxLen, len(tok))
	}
	v.addBOS, v.addSEP = true, true
	return &spec{source: v.name, model: m, added: v.addedTokens(), bos: v.idOr(101), eos: -1,
		unk: v.idOr(100), pad: v.idOr(0), size: len(v.tokens),
		pre: []preTokenizer{wordPiecePre{lowercase: lower, stripAccents: strip}},
		dec: decSequence{replaceDec{replace{m: literalMatcher{meta}, content: " "}}, fuseDec{}, stripDec{content: " ", start: 1}}}
}

// encodeLongest appends the ids of a word as WordPiece splits it: the
// longest token at each position, or the unknown token for the whole
// word when some position starts no token.
func (m *bpe) encodeLongest(dst []int32, word string) []int32 {
	start := len(dst)
	if m.maxWordRunes > 0 && utf8.RuneCountInString(word) > m.maxWordRunes {
		return m.appendUnk(dst)
	}
	var key []byte
	for i := 0; i < len(word); {
		j := min(len(word), i+m.maxLen)
		for ; j > i; j-- {
			if j < len(word) && !utf8.RuneStart(word[j]) {
				continue
			}
			var id int32
			var ok bool
			if i == 0 || m.contPrefix == "" {
				id, ok = m.vocab[word[i:j]]
			} else {
				key = append(append(key[:0], m.contPrefix...), word[i:j]...)
				id, ok = m.vocab[string(key)]
			}
			if ok {
				dst = append(dst, id)
				break
			}
		}
		if j == i {
			return m.appendUnk(dst[:start])
		}
		i = j
	}
	return dst
}

// appendUnk appends the unknown token, when there is one.
func (m *bpe) appendUnk(dst []int32) []int32 {
	if m.unk >= 0 {
		dst = append(dst, m.unk)
	}
	return dst
}

// wordPiecePre splits text into words as llama.cpp's BERT tokenizer does:
// NFD and no marks when stripping accents, no control characters, lower
// case when asked; whitespace separates words, and every punctuation
// character, ASCII symbol and CJK ideograph is a word of its own. Each
// word is passed on with ▁ in front.
type wordPiecePre struct{ lowercase, stripAccents bool }

func (w wordPiecePre) stage(next sink) sink { return &wordPieceStage{w, next} }

type wordPieceStage struct {
	wordPiecePre
	next sink
}

func (s *wordPieceStage) push(p piece) {
	text := p.text
	if s.stripAccents {
		text = norm.NFD.String(text)
	}
	var word strings.Builder
	flush := func() {
		if word.Len() > 0 {
			s.next.push(piece{text: meta + word.String()})
			word.Reset()
		}
	}
	for _, r := range text {
		switch {
		case unicode.IsSpace(r):
			flush()
			continue
		case r == 0 || r == utf8.RuneError || unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs):
			continue
		case s.stripAccents && unicode.IsMark(r):
			continue
		}
		alone := unicode.IsPunct(r) || r < 0x7f && unicode.IsSymbol(r) || isCJKIdeograph(r)
		if s.lowercase {
			r = unicode.ToLower(r)
		}
		if alone {
			flush()
			word.WriteRune(r)
			flush()
			continue
		}
		word.WriteRune(r)
	}
	flush()
}

// isCJKIdeograph reports the code points BERT treats as Chinese
// characters, as Hugging Face's tokenizers lists them.
func isCJKIdeograph(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FFF || r >= 0x3400 && r <= 0x4DBF ||
		r >= 0x20000 && r <= 0x2A6DF || r >= 0x2A700 && r <= 0x2B73F ||
		r >= 0x2B740 && r <= 0x2B81F || r >= 0x2B920 && r <= 0x2CEAF ||
		r >= 0xF900 && r <= 0xFAFF || r >= 0x2F800 && r <= 0x2FA1F
}
