package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/models/tokenizer"
)

// TestRunRawGreedy checks that mlx run --raw prints exactly the decoded
// greedy continuation llama.cpp produced for the same prompt, on a line of
// its own.
func TestRunRawGreedy(t *testing.T) {
	model := fixture.Path(t, "gguf", "llama-tiny-F32.gguf")
	var ref struct {
		Runs []struct {
			Cases []struct {
				Name         string  `json:"name"`
				PromptText   string  `json:"prompt_text"`
				GeneratedIDs []int32 `json:"generated_ids"`
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
	if !strings.HasSuffix(want, "\n") {
		want += "\n" // the answer ends its line
	}
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
		{"stdin only", "text\n", nil, "text", false},
		{"inner line ends kept", "a\n\nb\r\n", nil, "a\n\nb", false},
		{"both, stdin ends a line", "text\n", []string{"Summarize:"}, "Summarize:\n\ntext", false},
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

// cancelOnWrite cancels a context at the first write, as Ctrl+C while an
// answer streams.
type cancelOnWrite struct {
	bytes.Buffer
	cancel context.CancelFunc
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	w.cancel()
	return w.Buffer.Write(p)
}

// TestRunInterrupted checks that an answer stopped by Ctrl+C keeps what was
// printed, ends its line, and exits with status 130 saying why.
func TestRunInterrupted(t *testing.T) {
	model := fixture.Path(t, "gguf", "llama-tiny-Q8_0.gguf")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out := &cancelOnWrite{cancel: cancel}
	root := NewRoot()
	root.SetOut(out)
	root.SetErr(&bytes.Buffer{})
	root.SetIn(strings.NewReader("Tell me a long story"))
	root.SetArgs([]string{"run", "--raw", "--temperature", "0", "--threads", "2", model})
	err := root.ExecuteContext(ctx)
	if err == nil || err.Error() != "interrupted" || exitCode(err) != 130 {
		t.Errorf("error %v, exit status %d; want \"interrupted\" and 130", err, exitCode(err))
	}
	if got := out.String(); len(strings.TrimSpace(got)) == 0 || !strings.HasSuffix(got, "\n") {
		t.Errorf("output %q: want the answer's beginning on a line of its own", got)
	}
}

func TestReport(t *testing.T) {
	afterAnswer := interrupted(errInterrupted)
	afterAnswer.newLine = false
	tests := []struct {
		name string
		err  error
		tty  bool
		out  string
		code int
	}{
		{"error", errors.New("no such file"), true, "mlx: no such file\n", 1},
		{"interrupted on a terminal", fmt.Errorf("pull: %w", interrupted(errors.New("stopped"))), true, "\nmlx: pull: stopped\n", 130},
		{"interrupted, to a file", interrupted(errInterrupted), false, "mlx: interrupted\n", 130},
		{"interrupted after an answer's line", afterAnswer, true, "mlx: interrupted\n", 130},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		if code := report(&b, tc.tty, tc.err); code != tc.code || b.String() != tc.out {
			t.Errorf("%s: wrote %q and exit status %d, want %q and %d", tc.name, b.String(), code, tc.out, tc.code)
		}
	}
}

func TestOrInterrupted(t *testing.T) {
	failed := errors.New("loading: context canceled")
	if got := orInterrupted(t.Context(), failed); got != failed {
		t.Errorf("an error while ctx lives became %v", got)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if got := orInterrupted(ctx, failed); exitCode(got) != 130 || got.Error() != "interrupted" {
		t.Errorf("an error after SIGINT is %v with exit status %d, want the interruption", got, exitCode(got))
	}
	kept := interrupted(errInterrupted)
	kept.newLine = false
	if got := orInterrupted(ctx, kept); got != error(kept) {
		t.Errorf("an interruption was replaced by %v", got)
	}
	if got := orInterrupted(ctx, nil); got != nil {
		t.Errorf("no error became %v", got)
	}
}
