package tokenizer

import (
	"testing"

	"golang.org/x/text/unicode/norm"
)

// TestGGUFPresCompile checks that the split pattern of every
// tokenizer.ggml.pre name compiles.
func TestGGUFPresCompile(t *testing.T) {
	for name, pre := range ggufPres {
		for _, rx := range pre.regexes {
			if _, err := newPatternMatcher(rx); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}

// TestDeepseekLettersUnnormalized checks that the deepseek-llm letter class
// keeps the code points that NFC would replace, by matching each of them
// and its NFC form as letters.
func TestDeepseekLettersUnnormalized(t *testing.T) {
	m, err := newPatternMatcher(rxDeepseekL)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []rune{0x1F7D, 0x1FBE, 0x1FD3, 0x1FDB, 0x2126, 0x212A} {
		for _, s := range []string{string(r), norm.NFC.String(string(r))} {
			var spans matchSpans
			m.each(s, &spans)
			if len(spans) != 1 || spans[0] != [2]int{0, len(s)} {
				t.Errorf("%U: matches of %q are %v, want the whole letter", r, s, spans)
			}
		}
	}
}

// matchSpans collects the matches a matcher reports.
type matchSpans [][2]int

func (m *matchSpans) onSpan(start, end int, match bool) {
	if match {
		*m = append(*m, [2]int{start, end})
	}
}
