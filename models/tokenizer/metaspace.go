package tokenizer

import (
	"fmt"
	"strings"
)

// prependScheme says when Metaspace puts a replacement in front of a piece.
type prependScheme int

const (
	prependAlways prependScheme = iota
	prependFirst
	prependNever
)

func parsePrependScheme(s string, addPrefixSpace *bool) (prependScheme, error) {
	scheme := prependAlways
	switch s {
	case "", "always":
	case "first":
		scheme = prependFirst
	case "never":
		scheme = prependNever
	default:
		return 0, fmt.Errorf("%w: Metaspace prepend_scheme %.80q", ErrFormat, s)
	}
	if addPrefixSpace != nil && !*addPrefixSpace {
		scheme = prependNever
	}
	return scheme, nil
}

// metaspacePre replaces spaces by the replacement rune (▁), prepends one
// according to the scheme, and splits before each replacement.
type metaspacePre struct {
	repl   string
	scheme prependScheme
	split  bool
}

func (m *metaspacePre) stage(next sink) sink {
	st := &metaspaceStage{metaspacePre: m, next: next}
	if m.split {
		st.next = (&splitPre{m: literalMatcher{m.repl}, b: mergedWithNext}).stage(next)
	}
	return st
}

type metaspaceStage struct {
	*metaspacePre
	next sink
}

func (s *metaspaceStage) push(p piece) {
	text := strings.ReplaceAll(p.text, " ", s.repl)
	if !strings.HasPrefix(text, s.repl) &&
		(s.scheme == prependAlways || s.scheme == prependFirst && p.first) {
		text = s.repl + text
	}
	s.next.push(piece{text: text, first: p.first})
}

// metaspaceDec turns replacement runes back into spaces; in the first token
// they are dropped unless the scheme is "never".
type metaspaceDec struct {
	repl   string
	scheme prependScheme
}

func (d metaspaceDec) decodeChain(tokens []string, _ decodeMode) []string {
	for i, t := range tokens {
		with := " "
		if i == 0 && d.scheme != prependNever {
			with = ""
		}
		tokens[i] = strings.ReplaceAll(t, d.repl, with)
	}
	return tokens
}
