package tokenizer

import (
	"strings"
	"unicode/utf8"
)

// decodeMode says what happens to byte tokens that do not form valid UTF-8.
type decodeMode int

const (
	// exact replaces them as Hugging Face does.
	exact decodeMode = iota
	// stream keeps an incomplete sequence at the very end as bytes, for
	// the next token to complete.
	stream
	// rawBytes keeps all of them as bytes.
	rawBytes
)

// decoder is one step of Hugging Face's decoder chain: it rewrites the list
// of token strings.
type decoder interface {
	decodeChain(tokens []string, mode decodeMode) []string
}

// decSequence applies decoders in order.
type decSequence []decoder

func (q decSequence) decodeChain(tokens []string, mode decodeMode) []string {
	for _, d := range q {
		tokens = d.decodeChain(tokens, mode)
	}
	return tokens
}

// byteFallbackDec turns runs of <0xXX> tokens back into text; a run that is
// not valid UTF-8 becomes one U+FFFD per byte.
type byteFallbackDec struct{}

func (byteFallbackDec) decodeChain(tokens []string, mode decodeMode) []string {
	out := make([]string, 0, len(tokens))
	var run []byte
	flush := func(last bool) {
		if len(run) == 0 {
			return
		}
		switch s := string(run); {
		case utf8.ValidString(s) || mode == rawBytes:
			out = append(out, s)
		case last && mode == stream && completeLen(s) < len(s) && utf8.ValidString(s[:completeLen(s)]):
			out = append(out, s)
		default:
			for range run {
				out = append(out, "\uFFFD")
			}
		}
		run = run[:0]
	}
	for _, t := range tokens {
		if b, ok := byteToken(t); ok {
			run = append(run, b)
			continue
		}
		flush(false)
		out = append(out, t)
	}
	flush(true)
	return out
}

// byteToken parses a "<0xXX>" token.
func byteToken(t string) (byte, bool) {
	if len(t) != 6 || !strings.HasPrefix(t, "<0x") || t[5] != '>' {
		return 0, false
	}
	hi, ok1 := hexDigit(t[3])
	lo, ok2 := hexDigit(t[4])
	return hi<<4 | lo, ok1 && ok2
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// fuseDec joins all tokens into one.
type fuseDec struct{}

func (fuseDec) decodeChain(tokens []string, _ decodeMode) []string {
	return []string{strings.Join(tokens, "")}
}

// stripDec removes up to start leading and stop trailing copies of content
// from every token.
type stripDec struct {
	content     string
	start, stop int
}

func (d stripDec) decodeChain(tokens []string, _ decodeMode) []string {
	for i, t := range tokens {
		for k := 0; k < d.start && strings.HasPrefix(t, d.content); k++ {
			t = t[len(d.content):]
		}
		for k := 0; k < d.stop && strings.HasSuffix(t, d.content); k++ {
			t = t[:len(t)-len(d.content)]
		}
		tokens[i] = t
	}
	return tokens
}

// replaceDec substitutes a pattern in every token.
type replaceDec struct{ r replace }

func (d replaceDec) decodeChain(tokens []string, _ decodeMode) []string {
	for i, t := range tokens {
		tokens[i] = d.r.normalize(t)
	}
	return tokens
}

// bpeSuffixDec turns the end-of-word suffix into a space (none after the
// last token), as Hugging Face's BPEDecoder.
type bpeSuffixDec struct{ suffix string }

func (d bpeSuffixDec) decodeChain(tokens []string, _ decodeMode) []string {
	for i, t := range tokens {
		rep := " "
		if i == len(tokens)-1 {
			rep = ""
		}
		if d.suffix != "" {
			tokens[i] = strings.ReplaceAll(t, d.suffix, rep)
		}
	}
	return tokens
}
