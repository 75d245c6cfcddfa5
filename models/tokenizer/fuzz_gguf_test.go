package tokenizer

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mlxrun/mlx/models/gguf"
)

// FuzzFromGGUF builds GGUF vocabularies from fuzzed parts (model, pre
// name, tokens, merges, token types, scores, special ids): FromGGUF must
// return a tokenizer or an error, never panic, and a tokenizer it returns
// must encode and decode.
func FuzzFromGGUF(f *testing.F) {
	toks, merges := byteLevelVocab()
	f.Add("gpt2", "qwen2", strings.Join(toks, "\x00"), strings.Join(merges, "\n"), []byte{1, 1, 3}, uint32(5), true)
	f.Add("gpt2", "llama-bpe", strings.Join(toks, "\x00"), "Ġ t\nh e", []byte{}, uint32(300), false)
	f.Add("llama", "", "<unk>\x00<s>\x00</s>\x00▁\x00a\x00▁a\x00<0x41>", "", []byte{2, 3, 3, 1, 1, 1, 6}, uint32(1), true)
	f.Fuzz(func(t *testing.T, model, pre, tokens, merges string, types []byte, bos uint32, addBOS bool) {
		vocab := strings.Split(tokens, "\x00")
		tt := make([]int32, len(vocab))
		scores := make([]float32, len(vocab))
		for i := range tt {
			tt[i] = 1
			if i < len(types) {
				tt[i] = int32(types[i] % 8)
			}
			scores[i] = -float32(i)
		}
		kvs := []ggufKV{{"tokenizer.ggml.model", model}, {"tokenizer.ggml.pre", pre},
			{"tokenizer.ggml.tokens", vocab}, {"tokenizer.ggml.merges", strings.Split(merges, "\n")},
			{"tokenizer.ggml.token_type", tt}, {"tokenizer.ggml.scores", scores},
			{"tokenizer.ggml.bos_token_id", bos}, {"tokenizer.ggml.add_bos_token", addBOS}}
		file, err := gguf.Parse(ggufBytes(kvs), "fuzz.gguf")
		if err != nil {
			t.Skip() // the parts do not make a GGUF file (e.g. invalid UTF-8 is fine, a huge key is not)
		}
		tok, err := FromGGUF(file)
		if err != nil {
			return
		}
		ids := tok.Encode("Hello, wörld! 123 <s> 😀\n", true)
		if s := tok.Decode(ids, false); !utf8.ValidString(s) {
			t.Fatalf("decode gave invalid UTF-8 %q", s)
		}
		d := tok.NewStreamDecoder()
		for _, id := range ids {
			if s := d.Next(id); !utf8.ValidString(s) {
				t.Fatalf("stream gave invalid UTF-8 %q", s)
			}
		}
		for id := range min(tok.VocabSize(), 64) {
			tok.Piece(id)
		}
	})
}
