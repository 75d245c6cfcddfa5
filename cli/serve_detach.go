package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// detachedEnv marks the background child of mlx serve --detach.
const detachedEnv = "MLX_SERVE_DETACHED"

// detachExe is the binary --detach starts; tests replace it so that a
// test binary never starts itself.
var detachExe = os.Executable

// detachServe starts mlx serve in the background with the same arguments
// (without --detach), its output going to a log file of the state
// directory, and returns once its /health answers 200.
func detachServe(cmd *cobra.Command, o serveOptions) error {
	if o.port == 0 {
		return fmt.Errorf("--detach needs a fixed --port (not 0)")
	}
	ln, err := listen(o) // fail here, clearly, when the port is taken
	if err != nil {
		return err
	}
	ln.Close()
	dir, err := serveDir()
	if err != nil {
		return err
	}
	logFile := logPath(dir, o.port)
	out, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("server log: %w", err)
	}
	defer out.Close()
	self, err := detachExe()
	if err != nil {
		return fmt.Errorf("finding the mlx binary: %w", err)
	}
	child := exec.Command(self, withoutDetach(os.Args[1:])...)
	child.Stdout, child.Stderr = out, out
	child.Env = append(os.Environ(), detachedEnv+"=1")
	detachAttr(child)
	if err := child.Start(); err != nil {
		return fmt.Errorf("starting the server: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- child.Wait() }()
	url := "http://" + net.JoinHostPort(o.host, strconv.Itoa(o.port))
	if err := waitHealthy(cmd.Context(), url, o.readyTimeout, exited); err != nil {
		if msg := lastError(logFile); errors.Is(err, errExited) && msg != "" {
			return fmt.Errorf("%s (log %s)", msg, logFile)
		}
		return fmt.Errorf("%w\n%s", err, logTail(logFile, 10))
	}
	fmt.Fprintf(cmd.OutOrStdout(), "mlx serve: listening on %s (pid %d, log %s)\n", url, child.Process.Pid, logFile)
	return nil
}

// withoutDetach removes the --detach flag from command-line arguments.
func withoutDetach(args []string) []string {
	out := make([]string, 0, len(args))
	for _, a := range args {
		switch {
		case a == "--detach", a == "-d", strings.HasPrefix(a, "--detach="):
			continue
		}
		out = append(out, a)
	}
	return out
}

// errExited reports a detached server that exited before it was ready.
var errExited = errors.New("the server stopped before it was ready")

// waitHealthy polls url/health until it answers 200, the child exits or
// timeout passes.
func waitHealthy(ctx context.Context, url string, timeout time.Duration, exited <-chan error) error {
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return fmt.Errorf("%w (%v)", errExited, err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		resp, err := client.Get(url + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
	}
	return fmt.Errorf("the server did not become ready within %v (see --ready-timeout); it keeps loading in the background", timeout)
}

// lastError returns the error a server wrote last to its log (after
// "mlx: ", to the end), or "".
func lastError(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	i := bytes.LastIndex(b, []byte("\nmlx: "))
	if i < 0 {
		if !bytes.HasPrefix(b, []byte("mlx: ")) {
			return ""
		}
		i = -1
	}
	return string(bytes.TrimSpace(b[i+len("\nmlx: "):]))
}

// logTail returns the last n lines of a log file.
func logTail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "log " + path + ":\n" + string(bytes.Join(lines, []byte("\n")))
}
