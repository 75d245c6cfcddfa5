package tokenizer

import (
	"strings"
	"testing"
)

// TestGemma4 checks the BPE of tokenizer.ggml.model "gemma4" on a small
// vocabulary: spaces as ▁, merges by rank over characters, newline runs
// split from the rest, byte fallback, BOS added, and decoding back.
func TestGemma4(t *testing.T) {
	toks := []string{"<pad>", "<eos>", "<bos>", "<unk>", "h", "e", "l", "o", "▁", "\n",
		"he", "ll", "hell", "hello", "▁hello", "\n\n", "<0xC3>", "<0xA9>"}
	types := make([]int32, len(toks))
	for i := range types {
		types[i] = ggufNormal
	}
	for i := range 4 {
		types[i] = ggufControl
	}
	types[16], types[17] = ggufByte, ggufByte
	tok, err := parseGGUF(t, []ggufKV{{"tokenizer.ggml.model", "gemma4"},
		{"tokenizer.ggml.tokens", toks}, {"tokenizer.ggml.token_type", types},
		{"tokenizer.ggml.merges", []string{"h e", "l l", "he ll", "hell o", "▁ hello", "\n \n"}},
		{"tokenizer.ggml.bos_token_id", uint32(2)}, {"tokenizer.ggml.eos_token_id", uint32(1)}})
	if err != nil {
		t.Fatal(err)
	}
	const text = "hello hello\n\né"
	ids := tok.Encode(text, true)
	var got []string
	for _, id := range ids {
		got = append(got, tok.Token(int(id)))
	}
	if s := strings.Join(got, "|"); s != "<bos>|hello|▁hello|\n\n|<0xC3>|<0xA9>" {
		t.Errorf("encode: %q", s)
	}
	if s := tok.Decode(ids, true); s != text {
		t.Errorf("decode: %q, want %q", s, text)
	}
}
