package tokenizer

import (
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
