package tokenizer

import (
	"testing"
	"unicode/utf8"
)

// FuzzParseJSON feeds mutated tokenizer.json documents to the loader: it
// must return a tokenizer or an error, never panic, and a tokenizer it
// returns must encode and decode.
func FuzzParseJSON(f *testing.F) {
	f.Add([]byte(tinyJSON), []byte(nil))
	f.Add([]byte(byteVocabJSON(`{"id": 300, "content": "<m>", "lstrip": true, "special": true}`)), []byte(`{"add_bos_token": true}`))
	f.Add([]byte(`{"model": {"vocab": {"a": 0}, "merges": [["a", "a"]]}}`), []byte(`{"bos_token": {"content": "a"}}`))
	f.Fuzz(func(t *testing.T, doc, cfg []byte) {
		tok, err := ParseJSON(doc, cfg, "fuzz.json")
		if err != nil {
			return
		}
		ids := tok.Encode("Hello, wörld! 123 <m> 😀\n", true)
		if s := tok.Decode(ids, false); !utf8.ValidString(s) {
			t.Fatalf("decode gave invalid UTF-8 %q", s)
		}
	})
}

// FuzzEncode encodes arbitrary bytes with a real tokenizer and checks that
// decoding gives the (UTF-8-repaired) text back.
func FuzzEncode(f *testing.F) {
	tok := loadJSON(f, "llama3")
	for _, s := range differentialInputs(f, 40) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ids := tok.Encode(s, false)
		if got := tok.Decode(ids, false); got != lossy(s) {
			t.Fatalf("%q decoded to %q", s, got)
		}
	})
}
