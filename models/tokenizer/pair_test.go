package tokenizer

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestEncodePair checks the pair framing of llama.cpp's rerank prompts:
// a BERT vocabulary ([CLS] first [SEP] second, its defaults: no EOS,
// SEP between) and a byte-level BPE one that adds nothing.
func TestEncodePair(t *testing.T) {
	src := llamaCppSrc(t)
	for _, tt := range []struct {
		vocab        string
		head, middle []int32
	}{
		{"ggml-vocab-bert-bge.gguf", []int32{101}, []int32{102}},
		{"ggml-vocab-qwen2.gguf", nil, nil},
	} {
		tok, err := LoadGGUF(filepath.Join(src, "models", tt.vocab))
		if err != nil {
			t.Fatal(err)
		}
		first, second := "What is the capital of France?", "Paris is <b>the</b> capital. [SEP]"
		want := slices.Concat(tt.head, tok.EncodePlain(first), tt.middle, tok.EncodePlain(second))
		if got := tok.EncodePair(first, second); !slices.Equal(got, want) {
			t.Errorf("%s: pair %v, want %v", tt.vocab, got, want)
		}
	}
}
