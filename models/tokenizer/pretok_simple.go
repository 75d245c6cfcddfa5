package tokenizer

import "unicode"

// isPunct is Hugging Face's punctuation test: ASCII punctuation or any
// Unicode P* category.
func isPunct(r rune) bool {
	if r < 0x80 {
		return r >= '!' && r <= '/' || r >= ':' && r <= '@' || r >= '[' && r <= '`' || r >= '{' && r <= '~'
	}
	return unicode.IsPunct(r)
}

// newDigitsPre splits numbers out: each digit alone, or whole runs.
func newDigitsPre(individual bool) preTokenizer {
	b := contiguous
	if individual {
		b = isolated
	}
	return &splitPre{m: charMatcher{unicode.IsNumber}, b: b}
}

// newPunctuationPre splits punctuation out with the given behavior.
func newPunctuationPre(b behavior) preTokenizer {
	return &splitPre{m: charMatcher{isPunct}, b: b}
}

// newWhitespaceSplitPre splits on whitespace and drops it.
func newWhitespaceSplitPre() preTokenizer {
	return &splitPre{m: charMatcher{unicode.IsSpace}, b: removed}
}

// newCharDelimiterPre splits on one rune and drops it.
func newCharDelimiterPre(delim rune) preTokenizer {
	return &splitPre{m: charMatcher{func(r rune) bool { return r == delim }}, b: removed}
}

// newWhitespacePre keeps the matches of `\w+|[^\w\s]+` and drops the rest.
func newWhitespacePre() preTokenizer {
	return &splitPre{m: scanMatcher{wordsScan}, b: removed, invert: true}
}

// wordsScan scans `\w+|[^\w\s]+`.
func wordsScan(s string, i int) int {
	r, _, n := at(s, i)
	word := isWordRune(r)
	if !word && unicode.IsSpace(r) {
		return -1
	}
	for i += n; i < len(s); i += n {
		r, _, n = at(s, i)
		if isWordRune(r) != word || !word && unicode.IsSpace(r) {
			break
		}
	}
	return i
}

// bertPre is Hugging Face's BertPreTokenizer: split on whitespace, then
// isolate punctuation.
type bertPre struct{}

func (bertPre) stage(next sink) sink {
	return newWhitespaceSplitPre().stage(newPunctuationPre(isolated).stage(next))
}
