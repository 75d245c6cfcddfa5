package cli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/models/tokenizer"
)

// TestRunRawGreedy checks that mlx run --raw prints exactly the decoded
// greedy continuation llama.cpp produced for the same prompt.
func TestRunRawGreedy(t *testing.T) {
	model := fixture.Path(t, "gguf", "llama-tiny-F32.gguf")
	var ref struct {
		Runs []struct {
			Cases []struct {
				Name         string `json:"name"`
				PromptText   string `json:"prompt_text"`
				GeneratedIDs []int  `json:"generated_ids"`
			} `json:"cases"`
		} `json:"runs"`
	}
	b, err := os.ReadFile(fixture.Path(t, "reference", "llama-tiny-F32.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	c := ref.Runs[1].Cases[1]
	tok, err := tokenizer.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	want := tok.Decode(c.GeneratedIDs[:8], true)
	tests := []struct {
		name  string
		stdin string
		args  []string
	}{
		{"argument", "", []string{c.PromptText}},
		{"standard input", c.PromptText, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"run", "--raw", "--temperature", "0", "--max-tokens", "8", "--kv-type", "f32", "--threads", "2", model}, tt.args...)
			out, err := runWithInput(t, tt.stdin, args...)
			if err != nil {
				t.Fatal(err)
			}
			if out != want {
				t.Errorf("output %q, want %q", out, want)
			}
		})
	}
}

func TestRunMessage(t *testing.T) {
	tests := []struct {
		name, stdin string
		args        []string
		want        string
		fails       bool
	}{
		{"prompt only", "", []string{"hi"}, "hi", false},
		{"stdin only", "text\n", nil, "text\n", false},
		{"both", "text", []string{"Summarize:"}, "Summarize:\n\ntext", false},
		{"nothing", "  \n", nil, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := runMessage(strings.NewReader(tt.stdin), tt.args)
			if (err != nil) != tt.fails || got != tt.want {
				t.Errorf("runMessage = %q, %v; want %q (fails: %v)", got, err, tt.want, tt.fails)
			}
		})
	}
}

// TestRunChatTemplate runs a chat model through its template.
func TestRunChatTemplate(t *testing.T) {
	model := fixture.Path(t, "models", "llama-tiny")
	out, err := runWithInput(t, "", "run", "--temperature", "0", "--max-tokens", "4", "--threads", "2", "--system", "Be brief.", model, "Hello")
	if err != nil {
		t.Fatal(err)
	}
	if out == "" {
		t.Error("no answer")
	}
}
