package cli

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/models/tokenizer"
)

// referencePrompts returns prompt text -> ids from a llama.cpp reference.
func referencePrompts(t *testing.T, name string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(fixture.Path(t, "reference", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Runs []struct {
			Cases []struct {
				PromptText string `json:"prompt_text"`
				PromptIDs  []int  `json:"prompt_ids"`
			} `json:"cases"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, c := range ref.Runs[0].Cases {
		strs := make([]string, len(c.PromptIDs))
		for i, id := range c.PromptIDs {
			strs[i] = strconv.Itoa(id)
		}
		out[c.PromptText] = strings.Join(strs, " ")
	}
	return out
}

func TestTokenizeMatchesReference(t *testing.T) {
	prompts := referencePrompts(t, "qwen3-tiny-F16")
	models := []string{fixture.Path(t, "models", "qwen3-tiny"), fixture.Path(t, "gguf", "qwen3-tiny-F16.gguf"),
		fixture.Path(t, "models", "qwen3-tiny", "tokenizer.json")}
	for _, model := range models {
		for text, want := range prompts {
			out, err := run(t, "tokenize", model, text)
			if err != nil {
				t.Fatalf("%s: %v", model, err)
			}
			if got := strings.TrimSpace(out); got != want {
				t.Errorf("%s %q: got %q want %q", model, text, got, want)
			}
			back, err := run(t, "tokenize", "--ids", strings.ReplaceAll(want, " ", ","), model)
			if err != nil {
				t.Fatal(err)
			}
			if back != text+"\n" {
				t.Errorf("%s: --ids gave %q want %q", model, back, text)
			}
		}
	}
}

func TestTokenizeSpecialAndTokens(t *testing.T) {
	model := fixture.Path(t, "vocab", "ggml-vocab-llama-spm.gguf")
	tok, err := tokenizer.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "tokenize", "--special", "--tokens", model, "Hello world")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	ids := strings.Fields(lines[len(lines)-1])
	want := tok.Encode("Hello world", true)
	if len(ids) != len(want) || len(lines) != len(want)+1 {
		t.Fatalf("output %q for ids %v", out, want)
	}
	if ids[0] != strconv.Itoa(tok.BOS()) || !strings.HasPrefix(lines[0], strconv.Itoa(tok.BOS())+"\t") {
		t.Errorf("--special did not put BOS %d first: %q", tok.BOS(), out)
	}
}

func TestTokenizeErrors(t *testing.T) {
	model := fixture.Path(t, "vocab", "ggml-vocab-gpt-2.gguf")
	for _, args := range [][]string{
		{"tokenize", "--ids", "1,99999999", model},
		{"tokenize", "--ids", "1,x", model},
		{"tokenize", "--ids", "-3", model},
		{"tokenize", "/no/such/model", "hi"},
		{"tokenize"},
	} {
		if _, err := run(t, args...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}
