package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/hub/hubtest"
)

// cancelAt cancels a context when a text is written.
type cancelAt struct {
	bytes.Buffer
	text   string
	cancel context.CancelFunc
}

func (w *cancelAt) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte(w.text)) {
		w.cancel()
	}
	return w.Buffer.Write(p)
}

// TestPullInterrupted stops a pull in the middle of a file, as Ctrl+C does:
// mlx says how to resume and exits with status 130.
func TestPullInterrupted(t *testing.T) {
	srv, err := hubtest.Start("")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.Publish("org/model", map[string][]byte{"config.json": []byte("{}"), "model.safetensors": bytes.Repeat([]byte("weights!"), 100_000)})
	srv.Inject(hubtest.Fault{Kind: hubtest.FaultStall, File: "model.safetensors", At: 1000})
	clearHubEnv(t)
	t.Setenv("HF_ENDPOINT", srv.URL)
	t.Setenv("HF_HUB_CACHE", t.TempDir())
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	root := NewRoot()
	root.SetOut(&bytes.Buffer{})
	root.SetErr(&cancelAt{text: "model.safetensors: downloading", cancel: cancel})
	root.SetArgs([]string{"pull", "org/model"})
	err = root.ExecuteContext(ctx)
	if err == nil || !strings.Contains(err.Error(), "interrupted: run the same command to resume") || exitCode(err) != 130 {
		t.Fatalf("error %v, exit status %d; want the interruption and 130", err, exitCode(err))
	}
	var b bytes.Buffer
	if report(&b, true, err); !strings.HasPrefix(b.String(), "\nmlx: ") {
		t.Errorf("on a terminal the message %q does not start on a line of its own", b.String())
	}
}
