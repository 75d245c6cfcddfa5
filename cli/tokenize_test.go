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
	dir := fixture.Path(t, "models", "qwen3-tiny")
	cases := []struct{ model, prompt string }{
		{fixture.Path(t, "gguf", "qwen3-tiny-F16.gguf"), "The capital of France is"},
		{fixture.Path(t, "models", "qwen3-tiny", "tokenizer.json"), "Hello"},
	}
	for text := range prompts {
		cases = append(cases, struct{ model, prompt string }{dir, text})
	}
	for _, c := range cases {
		want, ok := prompts[c.prompt]
		if !ok {
			t.Fatalf("no reference prompt %q", c.prompt)
		}
		out, err := run(t, "tokenize", c.model, c.prompt)
		if err != nil {
			t.Fatalf("%s: %v", c.model, err)
		}
		if got := strings.TrimSpace(out); got != want {
			t.Errorf("%s %q: got %q want %q", c.model, c.prompt, got, want)
		}
		if !strings.Contains(c.prompt, "<|im_start|>") {
			continue
		}
		back, err := run(t, "tokenize", "--ids", strings.ReplaceAll(want, " ", ","), c.model)
		if err != nil {
			t.Fatal(err)
		}
		if back != c.prompt+"\n" {
			t.Errorf("%s: --ids gave %q want %q", c.model, back, c.prompt)
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
		{"tokenize", "--plain", "--special", model, "x"},
	} {
		if _, err := run(t, args...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

func TestTokenizePlain(t *testing.T) {
	model := fixture.Path(t, "models", "qwen3-tiny")
	tok, err := tokenizer.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	text := "<|im_start|>user"
	out, err := run(t, "tokenize", "--plain", model, text)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(out) {
		id, err := strconv.Atoi(f)
		if err != nil || tok.IsSpecial(id) {
			t.Fatalf("--plain output %q has special token %s", out, f)
		}
	}
}
