package tokenizer

import (
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// wordPiece builds Hugging Face's WordPiece model: the longest token at
// each position of a word, continuations spelled with a prefix ("##"),
// and the unknown token for a word that cannot be spelled or is longer
// than max_input_chars_per_word.
func (hm *hfModel) wordPiece(vocab map[string]int32) (*bpe, error) {
	m := newBPE(vocab)
	m.byID = indexByID(vocab)
	m.longest = true
	m.contPrefix = "##"
	if hm.ContinuingSubwordPrefix != nil {
		m.contPrefix = *hm.ContinuingSubwordPrefix
	}
	m.maxWordRunes = 100
	if hm.MaxInputCharsPerWord != nil {
		m.maxWordRunes = max(*hm.MaxInputCharsPerWord, 0)
	}
	unk := "[UNK]"
	if hm.UnkToken != nil {
		unk = *hm.UnkToken
	}
	id, ok := vocab[unk]
	if !ok {
		return nil, fmt.Errorf("%w: unk_token %.80q is not in the vocabulary", ErrFormat, unk)
	}
	m.unk = id
	for tok := range vocab {
		m.maxLen = max(m.maxLen, len(tok))
	}
	return m, nil
}

// bertNorm is Hugging Face's BertNormalizer: control characters dropped
// and whitespace made a space (clean_text), CJK ideographs set apart by
// spaces, accents stripped (NFD without nonspacing marks) and lower case.
type bertNorm struct{ clean, chinese, stripAccents, lowercase bool }

func (n bertNorm) normalize(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case n.clean && (r == 0 || r == unicode.ReplacementChar || isBertControl(r)):
		case n.clean && isBertSpace(r):
			b.WriteByte(' ')
		case n.chinese && isCJKIdeograph(r):
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	s = b.String()
	if n.stripAccents {
		s = stripAccents{}.normalize(norm.NFD.String(s))
	}
	if n.lowercase {
		s = lowercase{}.normalize(s)
	}
	return s
}

// isBertSpace is the whitespace of BERT's cleanup: tab, line feed,
// carriage return and the space separators.
func isBertSpace(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || unicode.Is(unicode.Zs, r)
}

// isBertControl is a control or format character other than the
// whitespace ones.
func isBertControl(r rune) bool {
	return r != '\t' && r != '\n' && r != '\r' && unicode.In(r, unicode.Cc, unicode.Cf)
}

// wordPieceDec is Hugging Face's WordPiece decoder: a token that starts
// with the prefix continues the word before, others start a new word;
// with cleanup, spaces before punctuation and English contractions go.
type wordPieceDec struct {
	prefix  string
	cleanup bool
}

// tokenCleanup is the tokenizer's clean_up_tokenization_spaces.
var tokenCleanup = strings.NewReplacer(" .", ".", " ?", "?", " !", "!", " ,", ",", " ' ", "'",
	" n't", "n't", " 'm", "'m", " 's", "'s", " 've", "'ve", " 're", "'re")

func (d wordPieceDec) decodeChain(tokens []string, _ decodeMode) []string {
	for i, t := range tokens {
		if i > 0 {
			if rest, ok := strings.CutPrefix(t, d.prefix); ok {
				t = rest
			} else {
				t = " " + t
			}
		}
		if d.cleanup {
			t = tokenCleanup.Replace(t)
		}
		tokens[i] = t
	}
	return tokens
}
