package tokenizer

import (
	"slices"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// vocabNames are the conformance vocabularies of testdata/vocab.
var vocabNames = []string{"qwen2", "llama-bpe", "llama-spm", "phi-3", "gpt-2", "deepseek-coder", "starcoder", "falcon"}

// loadVocab loads testdata/vocab/ggml-vocab-NAME.gguf.
func loadVocab(t *testing.T, name string) *Tokenizer {
	t.Helper()
	return cachedLoad(t, fixture.Path(t, "vocab", "ggml-vocab-"+name+".gguf"))
}

// checkCases encodes every case without special tokens, reports each
// mismatch and returns how many match the expected ids.
func checkCases(t *testing.T, tok *Tokenizer, cases []vocabCase) int {
	t.Helper()
	passed := 0
	for _, c := range cases {
		got := tok.Encode(c.text, false)
		if slices.Equal(got, c.ids) {
			passed++
			continue
		}
		t.Errorf("%q:\n got %v\nwant %v", c.text, got, c.ids)
	}
	t.Logf("%s: %d/%d cases pass", tok.Source(), passed, len(cases))
	return passed
}

func TestGGUFVocabConformance(t *testing.T) {
	for _, name := range vocabNames {
		t.Run(name, func(t *testing.T) {
			checkCases(t, loadVocab(t, name), readVocabCases(t, "ggml-vocab-"+name))
		})
	}
}
