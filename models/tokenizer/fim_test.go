package tokenizer

import (
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

func TestFIMBySpelling(t *testing.T) {
	cases := []struct {
		path                         []string
		pre, suf, mid, pad, rep, sep string // "" when the vocabulary lacks it
	}{
		{[]string{"tokenizers", "qwen3"}, "<|fim_prefix|>", "<|fim_suffix|>", "<|fim_middle|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>"},
		{[]string{"vocab", "ggml-vocab-starcoder.gguf"}, "<fim_prefix>", "<fim_suffix>", "<fim_middle>", "<fim_pad>", "", ""},
		{[]string{"vocab", "ggml-vocab-deepseek-coder.gguf"}, "<｜fim▁begin｜>", "<｜fim▁hole｜>", "<｜fim▁end｜>", "", "", ""},
		{[]string{"tokenizers", "llama3"}, "", "", "", "", "", ""},
	}
	for _, c := range cases {
		tok := cachedLoad(t, fixture.Path(t, c.path...))
		want := func(text string) int {
			if text == "" {
				return -1
			}
			id, ok := tok.TokenID(text)
			if !ok {
				t.Fatalf("%v: no token %q", c.path, text)
			}
			return id
		}
		w := FIM{Pre: want(c.pre), Suf: want(c.suf), Mid: want(c.mid), Pad: want(c.pad), Rep: want(c.rep), Sep: want(c.sep)}
		if got := tok.FIM(); got != w {
			t.Errorf("%v: FIM %+v, want %+v", c.path, got, w)
		}
		if got := tok.FIM().CanFill(); got != (c.pre != "") {
			t.Errorf("%v: CanFill %v", c.path, got)
		}
	}
}

func TestFIMFromGGUFKeys(t *testing.T) {
	toks, merges := byteLevelVocab()
	toks = append(toks, "<fim_prefix>")
	kvs := []ggufKV{
		{"tokenizer.ggml.model", "gpt2"}, {"tokenizer.ggml.pre", "qwen2"},
		{"tokenizer.ggml.tokens", toks}, {"tokenizer.ggml.merges", merges},
		{"tokenizer.ggml.fim_suf_token_id", uint32(3)}, {"tokenizer.ggml.fim_mid_token_id", uint32(4)},
		{"tokenizer.ggml.fim_pre_token_id", uint32(5)}, {"tokenizer.ggml.prefix_token_id", uint32(6)},
		{"tokenizer.ggml.fim_sep_token_id", uint32(len(toks) + 10)}, // beyond the vocabulary: none
	}
	tok, err := parseGGUF(t, kvs)
	if err != nil {
		t.Fatal(err)
	}
	want := FIM{Pre: 6, Suf: 3, Mid: 4, Pad: -1, Rep: -1, Sep: -1}
	if got := tok.FIM(); got != want {
		t.Errorf("FIM %+v, want %+v (the deprecated prefix key wins over the spelling and the new key)", got, want)
	}
}
