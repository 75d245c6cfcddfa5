package tokenizer

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

// differentialInputs returns real and random strings that exercise the
// split patterns: every class of rune, quotes, newlines and long runs.
func differentialInputs(t testing.TB, n int) []string {
	t.Helper()
	alphabet := []string{
		"a", "Z", "é", "ß", "д", "中", "ก", "ា", "\u0301", "\u200d", "😀", "🦙",
		"0", "7", "½", "²", "٣", "Ⅻ",
		" ", "  ", "\t", "\n", "\r", "\r\n", "\u00a0", "\u3000", "\u2028", "\u0085", "\v", "\f",
		"'", "'s", "'S", "'re", "'RE", "'ll", "'Ll", "'ve", "'d", "'m", "'t", "'x", "ſ", "K",
		"!", ".", ",", "-", "$", "+", "<", "|", "`", "~", "…", "。", "（", "\x00", "\x7f",
		"Hello", " world", "3.14", "x=1;", "\n\n\t", "   ", "\uFFFD",
		"A", "Q", "ǅ", "ᾈ", "ʰ", "ー", "ª", "ß", "Σ", "ς", "\u0301", "ा", "\u20dd", "/", "//", "HTTPServer", "iPhone", "ABC'S",
		"𝐀", "𝐚", "𐐀", "\U0001F1FA", "©", "€", "^", "¬", "‿", "«", "가", "\u0800", "ア", "ぁ", "゠", "龥", "ヿ",
		"'Ab", "!abc", "#x", "\u0301x", "x\u0301", "3a", "\ta",
	}
	rng := rand.New(rand.NewSource(1))
	var out []string
	for range n {
		var b strings.Builder
		for k := rng.Intn(24); k >= 0; k-- {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		out = append(out, b.String())
	}
	return out
}

func TestScannersMatchRegex(t *testing.T) {
	checkScanners(t, differentialInputs(t, 4000))
}

func TestScannersMatchRegexOnVocabInputs(t *testing.T) {
	checkScanners(t, texts(readVocabCases(t, "ggml-vocab-qwen2")))
}

func checkScanners(t *testing.T, inputs []string) {
	t.Helper()
	for pattern, fast := range knownPatterns {
		re, err := compileRegex(pattern)
		if err != nil {
			t.Fatalf("compile %q: %v", pattern, err)
		}
		for _, in := range inputs {
			want := collectSpans(re, in)
			got := collectSpans(fast, in)
			if !equalSpans(got, want) {
				t.Fatalf("pattern %q on %q:\n got %v\nwant %v", pattern, in, got, want)
			}
		}
	}
}

func equalSpans(a, b []span) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestLossyMaximalSubparts(t *testing.T) {
	for _, in := range differentialInputs(t, 200) {
		bad := in + "\xe2\x82" + in[:len(in)/2] + "\xff\xc3"
		got := lossy(bad)
		if !utf8.ValidString(got) {
			t.Fatalf("lossy(%q) = %q is not valid UTF-8", bad, got)
		}
		if utf8.ValidString(in) && lossy(in) != in {
			t.Fatalf("lossy changed valid %q", in)
		}
	}
}
