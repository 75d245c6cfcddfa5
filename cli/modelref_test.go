package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/models/hub/hubtest"
)

// fakeHubWithModel serves the llama-tiny GGUF fixture as test/tiny-GGUF on
// a fake hub and points the hub variables at it and at an empty cache.
func fakeHubWithModel(t *testing.T) (gguf string) {
	t.Helper()
	gguf = fixture.Path(t, "gguf", "llama-tiny-Q8_0.gguf")
	root := t.TempDir()
	repo := filepath.Join(root, "test", "tiny-GGUF")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(gguf, filepath.Join(repo, "llama-tiny-Q8_0.gguf")); err != nil {
		t.Fatal(err)
	}
	srv, err := hubtest.Start(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	clearHubEnv(t)
	t.Setenv("HF_ENDPOINT", srv.URL)
	t.Setenv("HF_HUB_CACHE", t.TempDir())
	return gguf
}

// tokenize, template and bench take the references run takes, pulling the
// model when it is not in the cache.
func TestCommandsTakeModelReferences(t *testing.T) {
	gguf := fakeHubWithModel(t)
	const ref = "test/tiny-GGUF:Q8_0"
	want, err := run(t, "tokenize", gguf, "Hello world")
	if err != nil {
		t.Fatal(err)
	}
	got, stderr, err := runCaptured(t, "", "tokenize", ref, "Hello world")
	if err != nil || got != want {
		t.Fatalf("tokenize %s: %q, %v; want %q", ref, got, err, want)
	}
	if !strings.Contains(stderr, "downloading") {
		t.Errorf("tokenize did not say it downloads: %q", stderr)
	}
	want, err = run(t, "template", "show", "--model", gguf)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := run(t, "template", "show", "--model", ref); err != nil || got != want {
		t.Errorf("template show --model %s: %q, %v; want %q", ref, got, err, want)
	}
	out, err := run(t, "bench", "-p", "4", "-n", "2", "-r", "1", "-t", "1", "--read-mib", "0", "--json", ref)
	if err != nil || !strings.Contains(out, "llama-tiny-Q8_0.gguf") {
		t.Errorf("bench %s: %q, %v", ref, out, err)
	}
}

// mlx --help says run is the chat and that a model may be a reference or
// an alias, pulled on demand.
func TestHelpDescribesRunAndReferences(t *testing.T) {
	out, err := run(t, "--help")
	if err != nil {
		t.Fatal(err)
	}
	var runLine string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "run ") {
			runLine = l
		}
	}
	for _, want := range []string{"chat", "pipe"} {
		if !strings.Contains(strings.ToLower(runLine), want) {
			t.Errorf("help line of run %q does not say %q", runLine, want)
		}
	}
	for _, want := range []string{"alias", "org/name", "downloaded"} {
		if !strings.Contains(out, want) {
			t.Errorf("mlx --help does not say %q:\n%s", want, out)
		}
	}
}

// Shell completion offers the cached models and the aliases for MODEL.
func TestCompleteModelNames(t *testing.T) {
	fakeHubWithModel(t)
	if _, err := run(t, "pull", "-q", "test/tiny-GGUF:Q8_0"); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"run", ""}, {"tokenize", ""}, {"show", ""}, {"rm", "x", ""}, {"template", "show", "--model", ""}} {
		out, err := run(t, append([]string{"__complete"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"test/tiny-GGUF:Q8_0\t", "smollm2:135m\tHuggingFaceTB/SmolLM2-135M-Instruct"} {
			if !strings.Contains(out, want) {
				t.Errorf("completion of %q lacks %q:\n%s", args, want, out)
			}
		}
	}
	out, err := run(t, "__complete", "run", "smollm2:1")
	if err != nil || !strings.Contains(out, "smollm2:135m") || strings.Contains(out, "qwen3") || strings.Contains(out, "tiny-GGUF") {
		t.Errorf("completion of smollm2:1: %q, %v", out, err)
	}
}
