package tokenizer

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// addedToken is a token matched in the text before pre-tokenization.
type addedToken struct {
	content    string
	id         int
	singleWord bool
	lstrip     bool
	rstrip     bool
	normalized bool
	special    bool
}

// segment is a part of the input: either text for the model (id < 0) or
// one added token.
type segment struct {
	text  string
	id    int
	first bool // starts at offset 0 of the original input
}

// addedSet holds the added tokens to match, split by whether they match
// the raw text or the normalized text.
type addedSet struct {
	raw, norm *addedMatcher
}

// newAddedSet builds the matchers; norm normalizes the contents of the
// tokens that match normalized text (nil: none).
func newAddedSet(toks []addedToken, norm normalizer, special bool) addedSet {
	var raw, normalized []addedToken
	for _, a := range toks {
		switch {
		case a.content == "" || a.special && !special:
		case a.normalized:
			if norm != nil {
				a.content = norm.normalize(a.content)
			}
			normalized = append(normalized, a)
		default:
			raw = append(raw, a)
		}
	}
	set := addedSet{raw: newAddedMatcher(raw)}
	if len(normalized) > 0 {
		set.norm = newAddedMatcher(normalized)
	}
	return set
}

// addedMatcher finds added tokens, leftmost first and the longest among
// those starting at the same place (Aho-Corasick leftmost-longest).
type addedMatcher struct {
	toks    []addedToken
	byFirst [256][]int32 // candidates by first byte, longest first
	// first is the first byte of every token when they all share it (as
	// "<" for most special tokens), else -1.
	first int
}

func newAddedMatcher(toks []addedToken) *addedMatcher {
	m := &addedMatcher{}
	for _, t := range toks {
		if t.content != "" {
			m.toks = append(m.toks, t)
		}
	}
	sort.SliceStable(m.toks, func(i, j int) bool { return len(m.toks[i].content) > len(m.toks[j].content) })
	m.first = -1
	for i, t := range m.toks {
		b := t.content[0]
		m.byFirst[b] = append(m.byFirst[b], int32(i))
		switch {
		case i == 0:
			m.first = int(b)
		case m.first != int(b):
			m.first = -2
		}
	}
	return m
}

// find returns the first match at or after i: its start and token index.
func (m *addedMatcher) find(s string, i int) (int, int) {
	for ; i < len(s); i++ {
		if m.first >= 0 {
			j := strings.IndexByte(s[i:], byte(m.first))
			if j < 0 {
				return -1, -1
			}
			i += j
		}
		for _, k := range m.byFirst[s[i]] {
			if strings.HasPrefix(s[i:], m.toks[k].content) {
				return i, int(k)
			}
		}
	}
	return -1, -1
}

// split cuts seg at the added tokens it contains, honouring single_word,
// lstrip and rstrip like Hugging Face's AddedVocabulary.
func (m *addedMatcher) split(dst []segment, seg segment) []segment {
	s := seg.text
	if m == nil || len(m.toks) == 0 || s == "" {
		return append(dst, seg)
	}
	startOffset := 0
	for i := 0; i < len(s); {
		pos, k := m.find(s, i)
		if pos < 0 {
			break
		}
		t := &m.toks[k]
		start, stop := pos, pos+len(t.content)
		i = stop
		if t.singleWord && (endsWithWord(s[:start]) || startsWithWord(s[stop:])) {
			continue
		}
		if t.lstrip {
			start = max(len(strings.TrimRightFunc(s[:start], unicode.IsSpace)), startOffset)
		}
		if t.rstrip {
			stop = len(s) - len(strings.TrimLeftFunc(s[stop:], unicode.IsSpace))
		}
		start = max(start, startOffset)
		if startOffset < start {
			dst = append(dst, segment{text: s[startOffset:start], id: -1, first: seg.first && startOffset == 0})
		}
		dst = append(dst, segment{text: s[start:stop], id: t.id})
		startOffset = stop
		i = max(i, stop)
	}
	if startOffset < len(s) {
		dst = append(dst, segment{text: s[startOffset:], id: -1, first: seg.first && startOffset == 0})
	}
	return dst
}

// isWordRune matches the regex class \w of Rust's regex crate.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) ||
		unicode.In(r, unicode.Nl, unicode.Pc, unicode.Other_Alphabetic, unicode.Join_Control)
}

func endsWithWord(s string) bool {
	r, n := utf8.DecodeLastRuneInString(s)
	return n > 0 && isWordRune(r)
}

func startsWithWord(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return n > 0 && isWordRune(r)
}
