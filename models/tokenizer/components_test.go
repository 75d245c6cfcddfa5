package tokenizer

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// collect is a sink that keeps the pieces it gets.
type collect []piece

func (c *collect) push(p piece) { *c = append(*c, p) }

// pretokenize runs pre-tokenizers over s and returns the piece texts.
func pretokenize(s string, first bool, pre ...preTokenizer) []string {
	var out collect
	var head sink = &out
	for i := len(pre) - 1; i >= 0; i-- {
		head = pre[i].stage(head)
	}
	head.push(piece{text: s, first: first})
	texts := make([]string, len(out))
	for i, p := range out {
		texts[i] = p.text
	}
	return texts
}

// The cases follow the definitions in Hugging Face's tokenizers (the
// SplitDelimiterBehavior folds in NormalizedString::split).
func TestSplitBehaviors(t *testing.T) {
	for _, tc := range []struct {
		b    behavior
		want []string
	}{
		{isolated, []string{"a", "-", "-", "b", "-", "c"}},
		{removed, []string{"a", "b", "c"}},
		{mergedWithPrevious, []string{"a-", "-", "b-", "c"}},
		{mergedWithNext, []string{"a", "-", "-b", "-c"}},
		{contiguous, []string{"a", "--", "b", "-", "c"}},
	} {
		got := pretokenize("a--b-c", true, &splitPre{m: literalMatcher{"-"}, b: tc.b})
		if !slices.Equal(got, tc.want) {
			t.Errorf("behavior %d: got %q want %q", tc.b, got, tc.want)
		}
		inv := pretokenize("a--b-c", true, &splitPre{m: literalMatcher{"-"}, b: tc.b, invert: true})
		if strings.Join(inv, "") != "a--b-c" && tc.b != removed {
			t.Errorf("behavior %d inverted lost text: %q", tc.b, inv)
		}
	}
}

func TestPreTokenizers(t *testing.T) {
	meta := func(s prependScheme, split bool) preTokenizer {
		return &metaspacePre{repl: "▁", scheme: s, split: split}
	}
	for _, tc := range []struct {
		name  string
		pre   []preTokenizer
		in    string
		first bool
		want  []string
	}{
		{"metaspace always", []preTokenizer{meta(prependAlways, true)}, "Hey  friend", false, []string{"▁Hey", "▁", "▁friend"}},
		{"metaspace first, at start", []preTokenizer{meta(prependFirst, false)}, "Hey friend", true, []string{"▁Hey▁friend"}},
		{"metaspace first, later", []preTokenizer{meta(prependFirst, false)}, "Hey friend", false, []string{"Hey▁friend"}},
		{"metaspace never", []preTokenizer{meta(prependNever, true)}, "Hey friend", true, []string{"Hey", "▁friend"}},
		{"whitespace", []preTokenizer{newWhitespacePre()}, "Hey man!  How's it?", true, []string{"Hey", "man", "!", "How", "'", "s", "it", "?"}},
		{"whitespace split", []preTokenizer{newWhitespaceSplitPre()}, " Hey man! ", true, []string{"Hey", "man!"}},
		{"bert", []preTokenizer{bertPre{}}, "Hey, man!", true, []string{"Hey", ",", "man", "!"}},
		{"punctuation", []preTokenizer{newPunctuationPre(isolated)}, "a,b.", true, []string{"a", ",", "b", "."}},
		{"digits", []preTokenizer{newDigitsPre(false)}, "Hey 123 friend٣4", true, []string{"Hey ", "123", " friend", "٣4"}},
		{"digits individual", []preTokenizer{newDigitsPre(true)}, "a12", true, []string{"a", "1", "2"}},
		{"char delimiter", []preTokenizer{newCharDelimiterPre('|')}, "a|b||c", true, []string{"a", "b", "c"}},
		{"byte level prefix", []preTokenizer{newByteLevelPre(true, true)}, "Hi you", true, []string{"ĠHi", "Ġyou"}},
	} {
		if got := pretokenize(tc.in, tc.first, tc.pre...); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q want %q", tc.name, got, tc.want)
		}
	}
}

func TestNormalizers(t *testing.T) {
	re, err := compileRegex(`\s+`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		n        normalizer
		in, want string
	}{
		{lowercase{}, "İSTANBUL ΣΑΣ", "i̇stanbul σασ"},
		{strip{left: true, right: true}, " \t a b \n", "a b"},
		{strip{right: true}, "  a  ", "  a"},
		{prepend{"▁"}, "", ""},
		{prepend{"▁"}, "a", "▁a"},
		{replace{m: literalMatcher{" "}, content: "▁"}, "a b  c", "a▁b▁▁c"},
		{replace{m: re, content: " "}, "a \t\n b", "a b"},
		{unicodeNorm{norm.NFKC}, "ﬁ①", "fi1"},
		{unicodeNorm{norm.NFD}, "é", "e\u0301"},
		{stripAccents{}, "e\u0301a", "ea"},
		{normSequence{prepend{"▁"}, lowercase{}}, "AB", "▁ab"},
	} {
		if got := tc.n.normalize(tc.in); got != tc.want {
			t.Errorf("%T(%q) = %q, want %q", tc.n, tc.in, got, tc.want)
		}
	}
}

func TestDecoders(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    decoder
		in   []string
		mode decodeMode
		want string
	}{
		{"byte fallback valid", byteFallbackDec{}, []string{"<0xE2>", "<0x82>", "<0xAC>", "a"}, exact, "€a"},
		{"byte fallback invalid", byteFallbackDec{}, []string{"<0xE2>", "<0x82>", "a"}, exact, "\uFFFD\uFFFDa"},
		{"byte fallback raw", byteFallbackDec{}, []string{"<0x82>", "a"}, rawBytes, "\x82a"},
		{"byte fallback partial", byteFallbackDec{}, []string{"a", "<0xE2>", "<0x82>"}, stream, "a\xe2\x82"},
		{"fuse", fuseDec{}, []string{"a", "b"}, exact, "ab"},
		{"strip", stripDec{content: " ", start: 1, stop: 1}, []string{"  a  "}, exact, " a "},
		{"metaspace", metaspaceDec{repl: "▁", scheme: prependAlways}, []string{"▁a▁b", "▁c"}, exact, "ab c"},
		{"metaspace never", metaspaceDec{repl: "▁", scheme: prependNever}, []string{"▁a", "▁c"}, exact, " a c"},
		{"bpe suffix", bpeSuffixDec{"</w>"}, []string{"a</w>", "b</w>"}, exact, "a b"},
	} {
		if got := strings.Join(tc.d.decodeChain(slices.Clone(tc.in), tc.mode), ""); got != tc.want {
			t.Errorf("%s: got %q want %q", tc.name, got, tc.want)
		}
	}
}

// byteVocabJSON is a tokenizer.json with the 256 byte-level tokens, no
// merges and the given added tokens.
func byteVocabJSON(added string) string {
	var b strings.Builder
	for i, c := range byteChar {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(c) + `":` + strconv.Itoa(i))
	}
	return `{"added_tokens": [` + added + `], "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false},
	 "decoder": {"type": "ByteLevel"}, "model": {"type": "BPE", "vocab": {` + b.String() + `}, "merges": []}}`
}

func TestAddedTokenFlags(t *testing.T) {
	added := `{"id": 300, "content": "<m>", "lstrip": true, "rstrip": true, "special": true},
	 {"id": 301, "content": "hi", "single_word": true}, {"id": 302, "content": "<s>", "special": true}`
	tok, err := ParseJSON([]byte(byteVocabJSON(added)), []byte(`{"bos_token": "<s>", "add_bos_token": true}`), "flags.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, want string }{
		{"a  <m>  b", "a|<m>|b"},
		{"hi this", "hi|Ġ|t|h|i|s"},
		{"ohi hi!", "o|h|i|Ġ|hi|!"},
		{"<s><m>", "<s>|<m>"},
	} {
		var toks []string
		for _, id := range tok.Encode(tc.in, false) {
			toks = append(toks, tok.Token(int(id)))
		}
		if got := strings.Join(toks, "|"); got != tc.want {
			t.Errorf("%q: got %s want %s", tc.in, got, tc.want)
		}
	}
	if ids := tok.Encode("a", true); !tok.AddBOS() || ids[0] != 302 || !tok.IsSpecial(302) || tok.IsSpecial(301) {
		t.Errorf("add_bos_token: %v", ids)
	}
}

// TestQuickNFC checks the NFC quick check against the full one on pairs
// and triples of runes with every kind of combining behaviour.
func TestQuickNFC(t *testing.T) {
	var sample []rune
	for r := rune(0x80); r < 0x10000; r += 61 {
		sample = append(sample, r)
	}
	marks := []rune{'a', 'e', 'A', 0x301, 0x327, 0x323, 0x94D, 0x93C, 0x17D2, 0x9BE, 0x9C7, 0x1161, 0x11A8,
		0x1100, 0xAC00, 0x3099, 0x304B, 0x0F73, 0x0958, 0x212A, 0x2126, 0x05B0, 0x0591, 0x1D165, 0x1F600, 0x2F800, 0x2FA1D, 0x1F1FA, 0x20000, 0x1D15E}
	check := func(s string) {
		if quickNFC(s) && !norm.NFC.IsNormalString(s) {
			t.Fatalf("%+q is not NFC but passes the quick check", s)
		}
	}
	for _, a := range append(sample, marks...) {
		for _, b := range marks {
			check(string(a) + string(b))
			for _, c := range marks {
				check(string(a) + string(b) + string(c))
			}
		}
	}
	for _, in := range differentialInputs(t, 3000) {
		check(in)
	}
	if !quickNFC(norm.NFC.String(mixedText(4<<10, 1))) {
		t.Error("the quick check fails on common NFC text")
	}
}

func TestAtomicPossessive(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`a+b`, `a+b`},
		{`[^\r\n\p{L}\p{N}]?+\p{L}+`, `(?>[^\r\n\p{L}\p{N}]?)\p{L}+`},
		{` ?[^\s\p{L}\p{N}]++[\r\n]*`, ` ?(?>[^\s\p{L}\p{N}]+)[\r\n]*`},
		{`(a|b*+)c`, `(a|(?>b*))c`},
		{`\p{L}*+x|\++`, `(?>\p{L}*)x|\++`},
		{`x\+++y`, `x(?>\++)y`},
	} {
		if got := atomicPossessive(tc.in); got != tc.want {
			t.Errorf("atomicPossessive(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// The Ling (bailingmoe) pattern as its tokenizer.json writes it splits
	// ordinary text like the greedy form llama.cpp uses.
	m, err := compileRegex(`'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+`)
	if err != nil {
		t.Fatal(err)
	}
	greedy, err := compileRegex(rxBailing)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range strings.Split(mixedText(4<<10, 3), "\n") {
		if got, want := collectSpans(m, in), collectSpans(greedy, in); !slices.Equal(got, want) {
			t.Fatalf("%q: possessive %v, greedy %v", in, got, want)
		}
	}
}
