package tokenizer

import (
	"slices"
	"strconv"
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
			got = append(got, tok.Token(int(id)))
		}
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("%q: got %q want %q", tc.in, s, tc.want)
		}
	}
	if s := tok.Decode(tok.Encode("Hello, world", false), false); s != "hello , world" {
		t.Errorf("decode: %q", s)
	}
}

// TestWordPieceJSON checks Hugging Face's WordPiece model with
// BertNormalizer, BertPreTokenizer, BertProcessing and the WordPiece
// decoder.
func TestWordPieceJSON(t *testing.T) {
	doc := func(maxChars int) []byte {
		return []byte(`{"added_tokens": [{"id": 1, "content": "[CLS]", "special": true}, {"id": 2, "content": "[SEP]", "special": true}],
		 "normalizer": {"type": "BertNormalizer", "lowercase": true},
		 "pre_tokenizer": {"type": "BertPreTokenizer"},
		 "post_processor": {"type": "BertProcessing", "sep": ["[SEP]", 2], "cls": ["[CLS]", 1]},
		 "decoder": {"type": "WordPiece"},
		 "model": {"type": "WordPiece", "max_input_chars_per_word": ` + strconv.Itoa(maxChars) + `, "vocab": {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2,
		   "hello": 3, "world": 4, "play": 5, "##ing": 6, ",": 7, "中": 8, "cafe": 9, "!": 10}}}`)
	}
	tok, err := ParseJSON(doc(100), nil, "wordpiece.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in, want string
		special  bool
	}{
		{"Café, PLAYING\u00ad中world", "cafe , play ##ing 中 world", false},
		{"hello unknown!", "hello [UNK] !", false},
		{"hello", "[CLS] hello [SEP]", true},
	} {
		var got []string
		for _, id := range tok.Encode(tc.in, tc.special) {
			got = append(got, tok.Token(int(id)))
		}
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("%q: got %q want %q", tc.in, s, tc.want)
		}
	}
	if s := tok.Decode(tok.Encode("Hello, playing world!", false), false); s != "hello, playing world!" {
		t.Errorf("decode: %q", s)
	}
	short, err := ParseJSON(doc(5), nil, "wordpiece.json")
	if err != nil {
		t.Fatal(err)
	}
	if ids := short.Encode("playing hello", false); len(ids) != 2 || ids[0] != 0 || ids[1] != 3 {
		t.Errorf("a word past max_input_chars_per_word: %v, want [0 3]", ids)
	}
}

// TestGGUFBertFrameOnce checks that a BERT vocabulary whose flags ask for
// EOS (llama.cpp's converter writes add_eos_token with EOS = [SEP]) still
// frames the text with one [CLS] and one [SEP], as llama.cpp tokenizes it.
func TestGGUFBertFrameOnce(t *testing.T) {
	toks := []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "▁hello", "▁world"}
	types := []int32{ggufControl, ggufControl, ggufControl, ggufControl, ggufNormal, ggufNormal}
	tok, err := parseGGUF(t, []ggufKV{
		{"tokenizer.ggml.model", "bert"}, {"tokenizer.ggml.tokens", toks}, {"tokenizer.ggml.token_type", types},
		{"tokenizer.ggml.bos_token_id", uint32(2)}, {"tokenizer.ggml.eos_token_id", uint32(3)},
		{"tokenizer.ggml.seperator_token_id", uint32(3)}, {"tokenizer.ggml.unknown_token_id", uint32(1)},
		{"tokenizer.ggml.add_bos_token", true}, {"tokenizer.ggml.add_eos_token", true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := tok.Encode("Hello world", true); !slices.Equal(got, []int32{2, 4, 5, 3}) {
		t.Errorf("Encode gave %v, want [CLS] hello world [SEP]: [2 4 5 3]", got)
	}
}

// TestWordPieceCased checks cased BERT (bert-base-cased, and the GGUF
// files of cased models, which say tokenizer.ggml.normalizer.lowercase
// false): case and accents stay, in GGUF files and tokenizer.json alike.
func TestWordPieceCased(t *testing.T) {
	toks := []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "▁Hello", "▁hello", "▁Café", "▁cafe", "▁!"}
	types := []int32{ggufControl, ggufControl, ggufControl, ggufControl, ggufNormal, ggufNormal, ggufNormal, ggufNormal, ggufNormal}
	gg, err := parseGGUF(t, []ggufKV{{"tokenizer.ggml.model", "bert"}, {"tokenizer.ggml.tokens", toks},
		{"tokenizer.ggml.token_type", types}, {"tokenizer.ggml.unknown_token_id", uint32(1)},
		{"tokenizer.ggml.normalizer.lowercase", false}})
	if err != nil {
		t.Fatal(err)
	}
	hf, err := ParseJSON([]byte(`{"normalizer": {"type": "BertNormalizer", "lowercase": false},
		 "pre_tokenizer": {"type": "BertPreTokenizer"},
		 "model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3,
		   "Hello": 4, "hello": 5, "Café": 6, "cafe": 7, "!": 8}}}`), nil, "cased.json")
	if err != nil {
		t.Fatal(err)
	}
	for name, tok := range map[string]*Tokenizer{"gguf": gg, "json": hf} {
		if got := tok.Encode("Hello Café! hello", false); !slices.Equal(got, []int32{4, 6, 8, 5}) {
			t.Errorf("%s: Encode gave %v, want Hello Café ! hello: [4 6 8 5]", name, got)
		}
	}
}
