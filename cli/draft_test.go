package cli

import (
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// TestSpecFlags runs mlx run with each speculative decoding flag (same
// output as without), the speculative mlx bench, and the errors of a bad
// draft model.
func TestSpecFlags(t *testing.T) {
	model := fixture.Path(t, "gguf", "llama-tiny-F32.gguf")
	base := []string{"run", "--raw", "--temperature", "0", "--max-tokens", "12", "--kv-type", "f32", "--threads", "2"}
	want, err := runWithInput(t, "", append(base, model, "The capital of France is")...)
	if err != nil {
		t.Fatal(err)
	}
	for _, flags := range [][]string{{"--lookup", "4"}, {"--draft", model, "--draft-tokens", "3"}} {
		out, err := runWithInput(t, "", append(append(base, flags...), model, "The capital of France is")...)
		if err != nil || out != want {
			t.Errorf("%v: output %q, %v; want %q", flags, out, err, want)
		}
	}
	out, err := runWithInput(t, "", "bench", "-n", "8", "-r", "1", "-t", "2", "--lookup", "4", "--draft", model, model)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"| plain", "| lookup 4", "| draft 5", "speed-up"} {
		if !strings.Contains(out, s) {
			t.Errorf("bench output lacks %q:\n%s", s, out)
		}
	}
	for _, tt := range []struct{ draft, want string }{
		{fixture.Path(t, "gguf", "qwen3-tiny-F16.gguf"), "vocabulary"},
		{t.TempDir() + "/missing.gguf", "--draft"},
	} {
		_, err := runWithInput(t, "", append(append(base, "--draft", tt.draft), model, "x")...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("--draft %s: error %v, want one naming %q", tt.draft, err, tt.want)
		}
	}
}
