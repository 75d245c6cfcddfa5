package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// Bad flag values and argument counts are refused with a sentence, before
// any work, and without the internals of the parsers.
func TestBadValuesRefused(t *testing.T) {
	old := detachExe
	detachExe = func() (string, error) { return filepath.Join(t.TempDir(), "no-such-mlx"), nil }
	defer func() { detachExe = old }()
	t.Setenv("MLX_HOME", t.TempDir())
	clearHubEnv(t)
	t.Setenv("HF_HUB_OFFLINE", "1")
	t.Setenv("HF_HUB_CACHE", t.TempDir())
	model := fixture.Path(t, "gguf", "llama-tiny-Q8_0.gguf")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run"}, "usage: mlx run MODEL [PROMPT]"},
		{[]string{"run", model, "a", "b"}, "3 arguments given"},
		{[]string{"run", "--temperature", "abc", model, "hi"}, `invalid value "abc" for --temperature: not a number`},
		{[]string{"run", "--top-k", "x", model, "hi"}, `invalid value "x" for --top-k: not a whole number`},
		{[]string{"run", "--ctx", "-5", model, "hi"}, "invalid value -5 for --ctx: it must be 0 or more"},
		{[]string{"run", "--threads", "-1", model, "hi"}, "invalid value -1 for --threads: it must be at least 1"},
		{[]string{"run", "--max-tokens", "-3", model, "hi"}, "invalid value -3 for --max-tokens: it must be 0 or more"},
		{[]string{"run", "--top-p", "1.5", model, "hi"}, "it must be between 0 and 1"},
		{[]string{"run", "--temperature", "3", model, "hi"}, "invalid value 3 for --temperature: it must be between 0 and 2"},
		{[]string{"bench", "--threads", "-1", model}, "invalid value -1 for --threads"},
		{[]string{"bench", "--ctx-nope", model}, "unknown flag"},
		{[]string{"serve", "--ctx", "-5", "--detach", "--port", "1"}, "invalid value -5 for --ctx"},
		{[]string{"serve", "--threads", "-1", model}, "invalid value -1 for --threads"},
		{[]string{"serve", "--keep-alive", "soon"}, `invalid value "soon" for --keep-alive: not a duration`},
	}
	for _, tc := range tests {
		_, _, err := runCaptured(t, "", tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.args, err, tc.want)
			continue
		}
		for _, leak := range []string{"strconv.", "accepts", "arg(s)", "9223372036854775807"} {
			if strings.Contains(err.Error(), leak) {
				t.Errorf("%q: error %q shows %q", tc.args, err, leak)
			}
		}
	}
	dir, _ := stateDir()
	if entries, _ := os.ReadDir(filepath.Join(dir, "serve")); len(entries) != 0 {
		t.Errorf("a refused serve --detach left %d files in the state folder", len(entries))
	}
}

// truncatedGGUF writes the first 1000 bytes of the tiny Llama GGUF to a
// temporary file and returns its path.
func truncatedGGUF(t *testing.T) string {
	t.Helper()
	full, err := os.ReadFile(fixture.Path(t, "gguf", "llama-tiny-Q8_0.gguf"))
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.gguf")
	if err := os.WriteFile(cut, full[:1000], 0o644); err != nil {
		t.Fatal(err)
	}
	return cut
}

// A damaged model is explained in words: a truncated GGUF as truncated, a
// broken tokenizer with one "tokenizer:".
func TestDamagedModelMessages(t *testing.T) {
	cut := truncatedGGUF(t)
	_, _, err := runCaptured(t, "", "run", cut, "hi")
	if err == nil || !strings.Contains(err.Error(), "file is truncated") {
		t.Errorf("truncated GGUF: %v", err)
	}
	dir := t.TempDir()
	src := fixture.Path(t, "models", "llama-tiny")
	for _, name := range []string{"config.json", "model.safetensors"} {
		if err := os.Symlink(filepath.Join(src, name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "tokenizer.json"), []byte("{bad"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runCaptured(t, "", "run", dir, "hi")
	if err == nil || strings.Contains(err.Error(), "tokenizer: tokenizer:") {
		t.Errorf("broken tokenizer: %v, want \"tokenizer:\" once", err)
	}
}

// mlx serve with a model that fails to load says nothing of listening, and
// its error once.
func TestServeBadModelNotListening(t *testing.T) {
	t.Setenv("MLX_HOME", t.TempDir())
	cut := truncatedGGUF(t)
	_, stderr, err := runCaptured(t, "", "serve", "--port", "0", cut)
	if err == nil || !strings.Contains(err.Error(), "file is truncated") {
		t.Fatalf("error %v", err)
	}
	if strings.Contains(stderr, "listening") || strings.Contains(stderr, "stopping") {
		t.Errorf("stderr of a server that never served:\n%s", stderr)
	}
}

// A detached server's last error is what --detach reports, once.
func TestLastError(t *testing.T) {
	log := filepath.Join(t.TempDir(), "s.log")
	body := "mlx serve: loading m\ntime=x level=ERROR msg=\"model load failed\" err=boom\nmlx: loading model m: boom\n"
	if err := os.WriteFile(log, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := lastError(log); got != "loading model m: boom" {
		t.Errorf("lastError = %q", got)
	}
	os.WriteFile(log, []byte("mlx: only\n"), 0o644)
	if got := lastError(log); got != "only" {
		t.Errorf("lastError = %q", got)
	}
	os.WriteFile(log, []byte("nothing\n"), 0o644)
	if got := lastError(log); got != "" {
		t.Errorf("lastError = %q", got)
	}
}
