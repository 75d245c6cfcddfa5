package tokenizer

import (
	"errors"
	"slices"
	"testing"
)

// unigramKVs is a small unigram vocabulary as llama.cpp's converter
// stores one (tokenizer.ggml.model "t5"): <s> <pad> </s> <unk>, then
// pieces whose scores make "▁hello" one token and "▁hell" + "o" worse.
func unigramKVs(extra ...ggufKV) []ggufKV {
	toks := []string{"<s>", "<pad>", "</s>", "<unk>", "▁hello", "▁hell", "o", "▁", "▁wor", "ld", "▁world", "l", "d"}
	scores := []float32{0, 0, 0, 0, -2, -1.5, -1, -3, -2, -2, -5, -4, -4}
	types := []int32{ggufControl, ggufControl, ggufControl, ggufUnknown}
	for range toks[4:] {
		types = append(types, ggufNormal)
	}
	return append([]ggufKV{{"tokenizer.ggml.model", "t5"}, {"tokenizer.ggml.tokens", toks},
		{"tokenizer.ggml.scores", scores}, {"tokenizer.ggml.token_type", types},
		{"tokenizer.ggml.bos_token_id", uint32(0)}, {"tokenizer.ggml.eos_token_id", uint32(2)},
		{"tokenizer.ggml.unknown_token_id", uint32(3)}, {"tokenizer.ggml.add_bos_token", true},
		{"tokenizer.ggml.remove_extra_whitespaces", true}}, extra...)
}

// TestUnigram checks the best-scoring split, the unknown token for runes
// no piece starts with (one for a run of them), the merged spaces and the
// <s> ... </s> frame.
func TestUnigram(t *testing.T) {
	tok, err := parseGGUF(t, unigramKVs())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		want []int32
	}{
		{"hello", []int32{4}},                  // ▁hello (-2) beats ▁hell o (-2.5)
		{"world", []int32{8, 9}},               // ▁wor ld (-4) beats ▁world (-5)
		{"  hello   world ", []int32{4, 8, 9}}, // spaces merged, none at the ends
		{"hello 東京", []int32{4, 7, 3}},         // two unknown runes are one <unk>
	} {
		if got := tok.Encode(c.text, false); !slices.Equal(got, c.want) {
			t.Errorf("Encode(%q) = %v, want %v", c.text, got, c.want)
		}
	}
	if got := tok.Encode("hello", true); !slices.Equal(got, []int32{0, 4, 2}) {
		t.Errorf("Encode with specials = %v, want <s> ▁hello </s>", got)
	}
	if got := tok.Decode(tok.Encode("hello world", false), false); got != "hello world" {
		t.Errorf("Decode gave %q", got)
	}
}

// TestUnigramBadCharsmap checks that a charsmap whose trie size runs past
// its bytes is refused, and that one whose nodes point anywhere does not
// crash the normaliser.
func TestUnigramBadCharsmap(t *testing.T) {
	_, err := parseGGUF(t, unigramKVs(ggufKV{"tokenizer.ggml.precompiled_charsmap", []int32{255, 255, 0, 0, 1}}))
	if !errors.Is(err, ErrFormat) {
		t.Errorf("a trie past the end gave %v", err)
	}
	// A root whose BASE leads past the trie, and a node that claims every
	// byte as a leaf with a replacement offset past the strings.
	for _, nodes := range [][]int32{{8, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0}, {8, 0, 0, 0, 0, 0, 0, 0, 0x68, 0x05, 0, 0}} {
		tok, err := parseGGUF(t, unigramKVs(ggufKV{"tokenizer.ggml.precompiled_charsmap", nodes}))
		if err != nil {
			t.Fatal(err)
		}
		if got := tok.Encode("hello", false); !slices.Equal(got, []int32{4}) {
			t.Errorf("charsmap %v: Encode gave %v", nodes, got)
		}
	}
}
