package tokenizer

import (
	"strconv"
	"strings"
	"testing"
)

// TestHarmonyEOG checks the end-of-generation tokens of a Harmony
// vocabulary (gpt-oss): <|return|> and <|call|> end it, <|end|> (which
// closes the reasoning message before the answer) does not; without
// <|return|> and <|call|> (Phi-3's format) <|end|> still ends it.
func TestHarmonyEOG(t *testing.T) {
	build := func(names ...string) *Tokenizer {
		t.Helper()
		var added []string
		for i, n := range names {
			added = append(added, `{"id": `+strconv.Itoa(5+i)+`, "content": "`+n+`", "special": true}`)
		}
		doc := strings.Replace(tinyJSON, `{"id": 5, "content": "<s>", "special": true}`, strings.Join(added, ", "), 1)
		tok, err := ParseJSON([]byte(doc), nil, "harmony.json")
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	harmony := build("<|start|>", "<|end|>", "<|return|>", "<|call|>", "<|endoftext|>")
	for text, want := range map[string]bool{"<|end|>": false, "<|return|>": true, "<|call|>": true, "<|endoftext|>": true, "<|start|>": false} {
		if id := harmony.ids[text]; harmony.IsEOG(id) != want {
			t.Errorf("Harmony: %s ends generation: %v, want %v (EOG %v)", text, !want, want, harmony.EOG())
		}
	}
	if phi := build("<|end|>", "<|user|>"); !phi.IsEOG(phi.ids["<|end|>"]) {
		t.Errorf("Phi-3: <|end|> does not end generation (EOG %v)", phi.EOG())
	}
}
