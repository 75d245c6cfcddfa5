package tokenizer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// loadJSON loads testdata/tokenizers/NAME/tokenizer.json.
func loadJSON(t testing.TB, name string) *Tokenizer {
	t.Helper()
	return cachedLoad(t, fixture.Path(t, "tokenizers", name, "tokenizer.json"))
}

func TestJSONMatchesVocabVectors(t *testing.T) {
	for _, tc := range []struct{ json, vocab string }{
		{"qwen3", "qwen2"},
		{"llama3", "llama-bpe"},
	} {
		t.Run(tc.json, func(t *testing.T) {
			checkCases(t, loadJSON(t, tc.json), readVocabCases(t, "ggml-vocab-"+tc.vocab))
		})
	}
}

// reference is the part of testdata/reference/*.json the tokenizer checks.
type reference struct {
	HFDir string `json:"hf_dir"`
	Runs  []struct {
		Cases []struct {
			Name       string  `json:"name"`
			PromptText string  `json:"prompt_text"`
			PromptIDs  []int32 `json:"prompt_ids"`
		} `json:"cases"`
	} `json:"runs"`
}

func readReference(t *testing.T, path string) reference {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r reference
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r
}

// TestReferencePromptIDs encodes the llama.cpp reference prompts with the
// model's GGUF file and, when there is one, its Hugging Face directory.
func TestReferencePromptIDs(t *testing.T) {
	refs, _ := filepath.Glob(filepath.Join(fixture.Path(t, "reference"), "*.json"))
	if len(refs) == 0 {
		t.Fatal("no reference files")
	}
	for _, path := range refs {
		stem := filepath.Base(path[:len(path)-len(".json")])
		t.Run(stem, func(t *testing.T) {
			r := readReference(t, path)
			var toks []*Tokenizer
			if g := filepath.Join(fixture.Dir(t), "gguf", stem+".gguf"); fileExists(g) {
				toks = append(toks, cachedLoad(t, g))
			}
			if r.HFDir != "" {
				toks = append(toks, cachedLoad(t, filepath.Join(fixture.Dir(t), filepath.Base(filepath.Dir(r.HFDir)), filepath.Base(r.HFDir))))
			}
			if len(toks) == 0 {
				t.Fatalf("no GGUF file and no model directory for %s", stem)
			}
			for _, tok := range toks {
				for _, run := range r.Runs {
					for _, c := range run.Cases {
						if got := tok.Encode(c.PromptText, false); !slices.Equal(got, c.PromptIDs) {
							t.Errorf("%s, %s: got %v want %v", tok.Source(), c.Name, got, c.PromptIDs)
						}
					}
				}
			}
		})
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestEOGCoversGenerationConfig checks that every eos_token_id of a model's
// generation_config.json ends generation, through the directory and the
// GGUF file made from it.
func TestEOGCoversGenerationConfig(t *testing.T) {
	for dir, ggufName := range map[string]string{"qwen3-tiny": "qwen3-tiny-F16", "llama-tiny": "llama-tiny-F32"} {
		data, err := os.ReadFile(fixture.Path(t, "models", dir, "generation_config.json"))
		if err != nil {
			t.Fatal(err)
		}
		var gc struct {
			EOS json.RawMessage `json:"eos_token_id"`
		}
		var ids []int
		if err := json.Unmarshal(data, &gc); err != nil || json.Unmarshal(gc.EOS, &ids) != nil {
			var one int
			if err := json.Unmarshal(gc.EOS, &one); err != nil {
				t.Fatalf("%s: eos_token_id %s", dir, gc.EOS)
			}
			ids = []int{one}
		}
		for _, tok := range []*Tokenizer{cachedLoad(t, fixture.Path(t, "models", dir)), cachedLoad(t, fixture.Path(t, "gguf", ggufName+".gguf"))} {
			for _, id := range ids {
				if !tok.IsEOG(id) {
					t.Errorf("%s: %d (%s) does not end generation; EOG = %v", tok.Source(), id, tok.Token(id), tok.EOG())
				}
			}
		}
	}
}

// TestEncodePlain checks that special tokens written in text stay text.
func TestEncodePlain(t *testing.T) {
	r := readReference(t, fixture.Path(t, "reference", "qwen3-tiny-F16.json"))
	tok := loadJSON(t, "qwen3")
	for _, c := range r.Runs[0].Cases {
		special := slices.ContainsFunc(c.PromptIDs, isSpecial(tok))
		ids := tok.EncodePlain(c.PromptText)
		if slices.ContainsFunc(ids, isSpecial(tok)) || tok.Decode(ids, false) != c.PromptText {
			t.Errorf("%s: EncodePlain gave %v", c.Name, ids)
		}
		if special == slices.Equal(ids, c.PromptIDs) {
			t.Errorf("%s: EncodePlain and Encode should differ exactly when the prompt has special tokens", c.Name)
		}
	}
}

// isSpecial reports whether an id of tok is a special token.
func isSpecial(tok *Tokenizer) func(int32) bool {
	return func(id int32) bool { return tok.IsSpecial(int(id)) }
}
