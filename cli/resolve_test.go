package cli

import (
	"bytes"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runCaptured executes the root command with stdin and args and returns
// stdout, stderr and the error.
func runCaptured(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	root := NewRoot()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetIn(strings.NewReader(stdin))
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), errOut.String(), err
}

// closedURL returns an http address on loopback that nothing listens at.
func closedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return "http://" + ln.Addr().String()
}

// README's first command without a hub says at once what it fetches, then
// fails within seconds with one sentence that says what to do.
func TestRunWithoutHubFailsFast(t *testing.T) {
	for _, endpoint := range []string{closedURL(t), "http://nonexistent.invalid"} {
		clearHubEnv(t)
		t.Setenv("HF_HUB_CACHE", t.TempDir())
		t.Setenv("HF_ENDPOINT", endpoint)
		start := time.Now()
		_, stderr, err := runCaptured(t, "", "run", "smollm2:135m", "Why is the sky blue?")
		took := time.Since(start)
		if err == nil {
			t.Fatalf("%s: no error", endpoint)
		}
		msg := err.Error()
		for _, want := range []string{"cannot reach", "HF_ENDPOINT", "HF_HUB_OFFLINE", "local .gguf file"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: error %q does not say %q", endpoint, msg, want)
			}
		}
		if strings.Contains(msg, "\n") || strings.Contains(msg, "retries") {
			t.Errorf("%s: error %q is not one sentence", endpoint, msg)
		}
		if !strings.Contains(stderr, "downloading") || !strings.Contains(stderr, "HuggingFaceTB/SmolLM2-135M-Instruct") {
			t.Errorf("%s: stderr %q does not say what is fetched", endpoint, stderr)
		}
		if took > 10*time.Second {
			t.Errorf("%s: failed after %v", endpoint, took)
		}
		_, stderr, err = runCaptured(t, "", "pull", "smollm2:135m")
		if err == nil || !strings.Contains(err.Error(), "cannot reach") || !strings.Contains(stderr, "pulling HuggingFaceTB/SmolLM2-135M-Instruct") {
			t.Errorf("%s: pull said %q, then %v", endpoint, stderr, err)
		}
	}
}

// A model written as a path that does not exist is "no such file", not a
// bad hub reference, and asks nothing of the hub.
func TestRunMissingPath(t *testing.T) {
	clearHubEnv(t)
	t.Setenv("HF_HUB_CACHE", t.TempDir())
	t.Setenv("HF_ENDPOINT", closedURL(t))
	for _, path := range []string{filepath.Join(t.TempDir(), "x", "missing.gguf"), "./does-not-exist", "missing.gguf"} {
		_, stderr, err := runCaptured(t, "", "run", path, "hi")
		if err == nil || err.Error() != path+": no such file or directory" {
			t.Errorf("run %s: error %v, want %q", path, err, path+": no such file or directory")
		}
		if stderr != "" {
			t.Errorf("run %s: stderr %q", path, stderr)
		}
	}
}
