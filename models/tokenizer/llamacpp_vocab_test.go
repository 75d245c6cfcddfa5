package tokenizer

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/gguf"
)

// llamaCppSrc returns the llama.cpp source tree whose models/ folder holds
// the ggml-vocab-*.gguf files and their vectors: MLX_LLAMACPP_SRC, else
// ~/.cache/mlx-ref/llama.cpp/src. When it is absent the test skips, or
// fails when MLX_REQUIRE_LLAMACPP=1 (CI).
func llamaCppSrc(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MLX_LLAMACPP_SRC")
	if dir == "" {
		if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, ".cache", "mlx-ref", "llama.cpp", "src")
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "models")); dir == "" || err != nil {
		msg := "llama.cpp source not found at " + dir + ": set MLX_LLAMACPP_SRC to a llama.cpp checkout"
		if os.Getenv("MLX_REQUIRE_LLAMACPP") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return dir
}

// TestLlamaCppVocabs runs every ggml-vocab-*.gguf of llama.cpp's models/
// folder that has .inp/.out vectors, loading each file as mlx loads a
// model's tokenizer. Vectors the folder lacks (its unigram vocabulary's)
// are read from MLX_ENCODER_FIXTURES, where models/fixture/encoders.sh
// writes llama.cpp's tokens of them.
func TestLlamaCppVocabs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(llamaCppSrc(t), "models", "ggml-vocab-*.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	var nfiles, nfilesOK, ncases, ncasesOK int
	for _, f := range files {
		vectors := f
		if _, err := os.Stat(vectors + ".out"); err != nil {
			vectors = filepath.Join(os.Getenv("MLX_ENCODER_FIXTURES"), filepath.Base(f))
			if _, err := os.Stat(vectors + ".out"); os.Getenv("MLX_ENCODER_FIXTURES") == "" || err != nil {
				continue
			}
		}
		nfiles++
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "ggml-vocab-"), ".gguf")
		t.Run(name, func(t *testing.T) {
			cases := readVectors(t, vectors)
			ncases += len(cases)
			tok, err := Load(f)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			ok := checkCases(t, tok, cases)
			ncasesOK += ok
			if ok == len(cases) {
				nfilesOK++
			}
		})
	}
	if nfiles == 0 {
		t.Fatal("no ggml-vocab-*.gguf with vectors in the llama.cpp source")
	}
	t.Logf("%d/%d files, %d/%d vectors pass", nfilesOK, nfiles, ncasesOK, ncases)
}

// TestLlamaCppBertAsJSON rebuilds the tokenizer.json of llama.cpp's BERT
// vocabulary (bge-small) from its GGUF file, with the WordPiece model,
// BertNormalizer, BertPreTokenizer and WordPiece decoder of the original,
// and checks llama.cpp's vectors through it: the Hugging Face path and the
// GGUF path must agree with the same reference.
func TestLlamaCppBertAsJSON(t *testing.T) {
	path := filepath.Join(llamaCppSrc(t), "models", "ggml-vocab-bert-bge.gguf")
	f, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	toks, _ := f.Strings("tokenizer.ggml.tokens")
	types, _ := f.Ints("tokenizer.ggml.token_type")
	vocab := map[string]int{}
	var added []string
	for id, tok := range toks {
		switch {
		case types[id] == ggufControl:
			added = append(added, fmt.Sprintf(`{"id": %d, "content": %q, "special": true}`, id, tok))
		case strings.HasPrefix(tok, "▁"):
			tok = strings.TrimPrefix(tok, "▁")
		default:
			tok = "##" + tok
		}
		vocab[tok] = id
	}
	vj, err := json.Marshal(vocab)
	if err != nil {
		t.Fatal(err)
	}
	doc := `{"added_tokens": [` + strings.Join(added, ",") + `],
	 "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": null, "lowercase": true},
	 "pre_tokenizer": {"type": "BertPreTokenizer"},
	 "post_processor": {"type": "BertProcessing", "sep": ["[SEP]", 102], "cls": ["[CLS]", 101]},
	 "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": true},
	 "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 100, "vocab": ` + string(vj) + `}}`
	tok, err := ParseJSON([]byte(doc), nil, "bert-bge.json")
	if err != nil {
		t.Fatal(err)
	}
	if n := checkCases(t, tok, readVectors(t, path)); n == 0 {
		t.Fatal("no vector passed")
	}
	if ids := tok.Encode("Hello world", true); len(ids) < 2 || ids[0] != 101 || ids[len(ids)-1] != 102 {
		t.Errorf("[CLS] ... [SEP] frame missing: %v", ids)
	}
	// Cleanup works token by token, as in Hugging Face's tokenizers: the
	// space before a comma goes, the ones around a lone apostrophe stay.
	if s := tok.Decode(tok.Encode("Hello, world! It's fine.", false), false); s != "hello, world! it ' s fine." {
		t.Errorf("decode: %q", s)
	}
}

// TestLlamaCppUnigramAsJSON rebuilds the tokenizer.json of XLM-RoBERTa
// from llama.cpp's unigram vocabulary (ggml-vocab-nomic-bert-moe.gguf):
// the Unigram model, the Precompiled and Replace normalizers, Metaspace
// and XLM-R's <s> ... </s> frame, and checks llama.cpp's vectors through
// it. The two pipelines differ at the ends of a text (Hugging Face keeps
// a space there as ▁; llama.cpp drops it), so only the texts without
// spaces at their ends must agree. The vectors are those
// models/fixture/encoders.sh writes (MLX_ENCODER_FIXTURES).
func TestLlamaCppUnigramAsJSON(t *testing.T) {
	dir := os.Getenv("MLX_ENCODER_FIXTURES")
	if dir == "" {
		t.Skip("MLX_ENCODER_FIXTURES (the output of models/fixture/encoders.sh) is not set")
	}
	path := filepath.Join(llamaCppSrc(t), "models", "ggml-vocab-nomic-bert-moe.gguf")
	f, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	toks, _ := f.Strings("tokenizer.ggml.tokens")
	scores, _ := f.Floats("tokenizer.ggml.scores")
	raw, _ := f.Ints("tokenizer.ggml.precompiled_charsmap")
	charsmap := make([]byte, len(raw))
	for i, x := range raw {
		charsmap[i] = byte(x)
	}
	vocab := make([][2]any, len(toks))
	for i, tok := range toks {
		vocab[i] = [2]any{tok, scores[i]}
	}
	doc := map[string]any{
		"added_tokens": []map[string]any{{"id": 0, "content": "<s>", "special": true}, {"id": 1, "content": "<pad>", "special": true},
			{"id": 2, "content": "</s>", "special": true}, {"id": 3, "content": "<unk>", "special": true},
			{"id": 250001, "content": "<mask>", "special": true}},
		"normalizer": map[string]any{"type": "Sequence", "normalizers": []any{
			map[string]any{"type": "Precompiled", "precompiled_charsmap": base64.StdEncoding.EncodeToString(charsmap)},
			map[string]any{"type": "Replace", "pattern": map[string]any{"Regex": " {2,}"}, "content": " "}}},
		"pre_tokenizer":  map[string]any{"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": true},
		"post_processor": map[string]any{"type": "RobertaProcessing", "sep": []any{"</s>", 2}, "cls": []any{"<s>", 0}},
		"decoder":        map[string]any{"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": true},
		"model":          map[string]any{"type": "Unigram", "unk_id": 3, "vocab": vocab},
	}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := ParseJSON(data, nil, "xlm-roberta.json")
	if err != nil {
		t.Fatal(err)
	}
	var inner []vocabCase
	for _, c := range readVectors(t, filepath.Join(dir, filepath.Base(path))) {
		if strings.TrimSpace(c.text) == c.text {
			inner = append(inner, c)
		}
	}
	if n := checkCases(t, tok, inner); n != len(inner) {
		t.Errorf("%d of %d texts without spaces at their ends agree with llama.cpp", n, len(inner))
	}
	if ids := tok.Encode("Hello world", true); len(ids) < 2 || ids[0] != 0 || ids[len(ids)-1] != 2 {
		t.Errorf("<s> ... </s> frame missing: %v", ids)
	}
}
