package tokenizer

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// withComponent returns byteVocabJSON with one more top-level component.
func withComponent(key, value string) []byte {
	return []byte(strings.Replace(byteVocabJSON(""), `"model":`, `"`+key+`": `+value+`, "model":`, 1))
}

// repeated returns a Sequence of n copies of one component.
func repeated(list, item string, n int) string {
	return `{"type": "Sequence", "` + list + `": [` + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + `]}`
}

// TestGrowthRefused checks that tokenizers whose normalizers,
// pre-tokenizers or decoders would make text exponentially longer are
// refused when they load, with a sentence that names the part.
func TestGrowthRefused(t *testing.T) {
	aa := `{"type": "Replace", "pattern": {"String": "a"}, "content": "aa"}`
	byteLevel := `{"type": "ByteLevel", "add_prefix_space": false, "use_regex": false}`
	for _, tc := range []struct {
		name string
		doc  []byte
		part string
	}{
		{"normalizer", withComponent("normalizer", repeated("normalizers", aa, 60)), "normalizer"},
		{"regex normalizer", withComponent("normalizer", repeated("normalizers", `{"type": "Replace", "pattern": {"Regex": "."}, "content": "xyz"}`, 8)), "normalizer"},
		{"pre-tokenizer", []byte(strings.Replace(byteVocabJSON(""), `"pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false}`,
			`"pre_tokenizer": `+repeated("pretokenizers", byteLevel, 60), 1)), "pre_tokenizer"},
		{"decoder", []byte(strings.Replace(byteVocabJSON(""), `"decoder": {"type": "ByteLevel"}`, `"decoder": `+repeated("decoders", aa, 60), 1)), "decoder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseJSON(tc.doc, nil, "growth.json")
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.part) || !strings.Contains(err.Error(), "longer") {
				t.Fatalf("got %v, want ErrFormat naming the %s", err, tc.part)
			}
		})
	}
}

// TestGrowthAllowed checks that the usual chains load and keep working.
func TestGrowthAllowed(t *testing.T) {
	spm := `{"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"}, {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]}`
	nfkc := `{"type": "Sequence", "normalizers": [{"type": "NFKC"}, {"type": "Lowercase"}, {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]}`
	for _, n := range []string{spm, nfkc, repeated("normalizers", `{"type": "Replace", "pattern": {"String": "a"}, "content": "aa"}`, 6)} {
		tok, err := ParseJSON(withComponent("normalizer", n), nil, "growth.json")
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if ids := tok.Encode("a b", false); len(ids) == 0 {
			t.Errorf("%s: no tokens", n)
		}
	}
}

// FuzzNormalizers loads tokenizers with arbitrary normalizer components and
// checks that a normalizer that loads keeps within the growth bound on
// arbitrary text, and that encoding and decoding work.
func FuzzNormalizers(f *testing.F) {
	for _, n := range []string{
		`{"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"}, {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]}`,
		`{"type": "Sequence", "normalizers": [{"type": "NFKD"}, {"type": "StripAccents"}, {"type": "Lowercase"}, {"type": "Strip", "strip_left": true, "strip_right": true}]}`,
		`{"type": "Replace", "pattern": {"Regex": "\\s+"}, "content": "  "}`,
		`{"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": null, "lowercase": true}`,
		`{"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "ByteLevel"}, {"type": "Replace", "pattern": {"String": "a"}, "content": "aa"}]}`,
		repeated("normalizers", `{"type": "Replace", "pattern": {"String": "a"}, "content": "aa"}`, 7),
	} {
		f.Add(n, "Hello, wörld! ﷺ İstanbul  \t a")
	}
	f.Fuzz(func(t *testing.T, n, text string) {
		tok, err := ParseJSON(withComponent("normalizer", n), nil, "fuzz.json")
		if err != nil {
			return
		}
		if tok.norm != nil && text != "" {
			if out := tok.norm.normalize(text); len(out) > maxGrowth*len(text) {
				t.Fatalf("normalizer %s made %d bytes of %d", n, len(out), len(text))
			}
		}
		if s := tok.Decode(tok.Encode(text, false), false); !utf8.ValidString(s) {
			t.Fatalf("decode gave invalid UTF-8 %q", s)
		}
	})
}
