package tokenizer

import (
	"slices"
	"strings"
	"testing"
)

// TestAddSpecialPrecedence checks which of tokenizer.json's post_processor
// and tokenizer_config.json's add_bos_token / add_eos_token decides what
// Encode adds: the post-processor, unless the config says otherwise.
func TestAddSpecialPrecedence(t *testing.T) {
	const (
		added = `{"id": 300, "content": "<s>", "special": true}, {"id": 301, "content": "</s>", "special": true}`
		bos   = `{"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>"}}, {"Sequence": {"id": "A"}}],
			"special_tokens": {"<s>": {"ids": [300]}}}`
		bosEOS = `{"type": "TemplateProcessing",
			"single": [{"SpecialToken": {"id": "<s>"}}, {"Sequence": {"id": "A"}}, {"SpecialToken": {"id": "</s>"}}],
			"special_tokens": {"<s>": {"ids": [300]}, "</s>": {"ids": [301]}}}`
	)
	for _, tc := range []struct {
		name, post, config string
		want               []int32 // what Encode("a", true) adds around the 'a'
		bos, eos           bool    // AddBOS, AddEOS
	}{
		{"no post-processor, no config", "null", "", nil, false, false},
		// Without a config the tokenizer has no BOS (as in Hugging Face), so
		// AddBOS is false although the post-processor adds a token.
		{"post-processor BOS, no config", bos, "", []int32{300}, false, false},
		{"post-processor BOS, config names it", bos, `{"bos_token": "<s>"}`, []int32{300}, true, false},
		{"config add_bos_token false drops it", bos, `{"bos_token": "<s>", "add_bos_token": false}`, nil, false, false},
		{"config add_bos_token true adds it", "null", `{"bos_token": "<s>", "add_bos_token": true}`, []int32{300}, true, false},
		{"add_bos_token without a known bos_token", "null", `{"bos_token": "<zz>", "add_bos_token": true}`, nil, false, false},
		{"add_bos_token without bos_token", "null", `{"add_bos_token": true}`, nil, false, false},
		{"config add_eos_token true", bos, `{"bos_token": "<s>", "eos_token": "</s>", "add_eos_token": true}`, []int32{300, 301}, true, true},
		{"post-processor BOS and EOS", bosEOS, `{"bos_token": "<s>", "eos_token": "</s>"}`, []int32{300, 301}, true, true},
		{"config add_eos_token false drops it", bosEOS, `{"bos_token": "<s>", "eos_token": "</s>", "add_eos_token": false}`, []int32{300}, true, false},
		{"both false", bosEOS, `{"bos_token": "<s>", "eos_token": "</s>", "add_bos_token": false, "add_eos_token": false}`, nil, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := strings.Replace(byteVocabJSON(added), `"decoder":`, `"post_processor": `+tc.post+`, "decoder":`, 1)
			var cfg []byte
			if tc.config != "" {
				cfg = []byte(tc.config)
			}
			tok, err := ParseJSON([]byte(doc), cfg, "special.json")
			if err != nil {
				t.Fatal(err)
			}
			plain := tok.Encode("a", false)
			ids := tok.Encode("a", true)
			var around []int32
			for _, id := range ids {
				if !slices.Contains(plain, id) {
					around = append(around, id)
				}
			}
			if !slices.Equal(around, tc.want) || tok.AddBOS() != tc.bos || tok.AddEOS() != tc.eos {
				t.Errorf("Encode adds %v (AddBOS %v, AddEOS %v), want %v (%v, %v)",
					around, tok.AddBOS(), tok.AddEOS(), tc.want, tc.bos, tc.eos)
			}
			if len(tc.want) > 0 && tc.want[0] == 300 && ids[0] != 300 {
				t.Errorf("BOS is not first: %v", ids)
			}
		})
	}
}

// TestGGUFAddBOS checks where a GGUF tokenizer's BOS flag comes from:
// tokenizer.ggml.add_bos_token when present, else llama.cpp's default for
// the tokenizer model and pre-tokenizer.
func TestGGUFAddBOS(t *testing.T) {
	toks, merges := byteLevelVocab()
	spm := []string{"<unk>", "<s>", "</s>", "▁", "a", "▁a"}
	for _, tc := range []struct {
		name string
		kvs  []ggufKV
		want bool
	}{
		{"SentencePiece default", []ggufKV{{"tokenizer.ggml.model", "llama"}, {"tokenizer.ggml.tokens", spm},
			{"tokenizer.ggml.scores", make([]float32, len(spm))}}, true},
		{"SentencePiece add_bos_token false", []ggufKV{{"tokenizer.ggml.model", "llama"}, {"tokenizer.ggml.tokens", spm},
			{"tokenizer.ggml.scores", make([]float32, len(spm))}, {"tokenizer.ggml.add_bos_token", false}}, false},
		{"llama-bpe default", []ggufKV{{"tokenizer.ggml.model", "gpt2"}, {"tokenizer.ggml.pre", "llama-bpe"},
			{"tokenizer.ggml.tokens", toks}, {"tokenizer.ggml.merges", merges}, {"tokenizer.ggml.bos_token_id", uint32(5)}}, true},
		{"qwen2 default", []ggufKV{{"tokenizer.ggml.model", "gpt2"}, {"tokenizer.ggml.pre", "qwen2"},
			{"tokenizer.ggml.tokens", toks}, {"tokenizer.ggml.merges", merges}, {"tokenizer.ggml.bos_token_id", uint32(5)}}, false},
		{"qwen2 add_bos_token true", []ggufKV{{"tokenizer.ggml.model", "gpt2"}, {"tokenizer.ggml.pre", "qwen2"},
			{"tokenizer.ggml.tokens", toks}, {"tokenizer.ggml.merges", merges}, {"tokenizer.ggml.bos_token_id", uint32(5)},
			{"tokenizer.ggml.add_bos_token", true}}, true},
		{"add_bos_token true without a BOS id", []ggufKV{{"tokenizer.ggml.model", "gpt2"}, {"tokenizer.ggml.pre", "qwen2"},
			{"tokenizer.ggml.tokens", toks}, {"tokenizer.ggml.merges", merges}, {"tokenizer.ggml.add_bos_token", true}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tok, err := parseGGUF(t, tc.kvs)
			if err != nil {
				t.Fatal(err)
			}
			ids := tok.Encode("a", true)
			if tok.AddBOS() != tc.want || (int(ids[0]) == tok.BOS()) != tc.want {
				t.Errorf("AddBOS %v, Encode gives %v with BOS %d; want AddBOS %v", tok.AddBOS(), ids, tok.BOS(), tc.want)
			}
		})
	}
}
