package tokenizer

import (
	"strings"
	"testing"
)

// bertVocab is a small vocabulary stored the way llama.cpp stores BERT's:
// word starts with ▁, continuations bare, [CLS] 101 and [SEP] 102 as in
// the real ones.
func bertVocab() ([]string, []int32) {
	toks := make([]string, 110)
	types := make([]int32, len(toks))
	for i := range toks {
		toks[i] = "[unused" + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + "]"
		types[i] = ggufNormal
	}
	toks[0], toks[100], toks[101], toks[102] = "[PAD]", "[UNK]", "[CLS]", "[SEP]"
	for _, i := range []int{0, 100, 101, 102} {
		types[i] = ggufControl
	}
	words := []string{"▁hello", "▁world", "▁play", "ing", "▁,", "▁!", "▁cafe", "▁中", "▁文", "▁$", "ed"}
	copy(toks[1:], words)
	return toks, types
}

// TestWordPiece checks the BERT tokenizer of GGUF files: cleaning, lower
// case and accents, words split at punctuation and CJK characters, the
// longest token first, [UNK] for a word that cannot be spelled, and the
// [CLS] ... [SEP] frame.
func TestWordPiece(t *testing.T) {
	toks, types := bertVocab()
	tok, err := parseGGUF(t, []ggufKV{{"tokenizer.ggml.model", "bert"}, {"tokenizer.ggml.pre", "bert-bge"},
		{"tokenizer.ggml.tokens", toks}, {"tokenizer.ggml.token_type", types},
		{"tokenizer.ggml.unknown_token_id", uint32(100)}, {"tokenizer.ggml.seperator_token_id", uint32(102)},
		{"tokenizer.ggml.cls_token_id", uint32(101)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in      string
		special bool
		want    string
	}{
		{"Hello, WORLD!", false, "▁hello ▁, ▁world ▁!"},
		{"playing  played\tplay\x00ing", false, "▁play ing ▁play ed ▁play ing"},
		{"Café 中文$", false, "▁cafe ▁中 ▁文 ▁$"},
		{"hello unknown", false, "▁hello [UNK]"},
		{"hello", true, "[CLS] ▁hello [SEP]"},
		{"", false, ""},
	} {
		var got []string
		for _, id := range tok.Encode(tc.in, tc.special) {
			got = append(got, tok.Token(id))
		}
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("%q: got %q want %q", tc.in, s, tc.want)
		}
	}
	if s := tok.Decode(tok.Encode("Hello, world", false), false); s != "hello , world" {
		t.Errorf("decode: %q", s)
	}
}
