//go:build unix

// Package e2e holds the end-to-end checks of mlx serve: the OpenAI SDK
// suites (run.sh) and, here, a hostile client against the built binary.
package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/fixture"
)

// TestAbuse runs the mlx binary named by MLX_ABUSE_BIN (CI builds it) as
// `mlx serve` under `ulimit -n 256` and attacks it: 300 idle connections,
// models that name files outside what it serves or a hub repo, a request
// a web page could send through DNS rebinding and a grammar nested two
// million levels deep. The server must
// keep answering, refuse each within 100 ms without telling anything of
// the file system, and never call the hub.
func TestAbuse(t *testing.T) {
	bin := os.Getenv("MLX_ABUSE_BIN")
	if bin == "" {
		t.Skip("set MLX_ABUSE_BIN to an mlx binary (go build -o /tmp/mlx .) to run the abuse test")
	}
	model := fixture.Path(t, "gguf", "llama-tiny-Q8_0.gguf")
	var hubCalls atomic.Int32
	hubSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hubCalls.Add(1)
		http.NotFound(w, r)
	}))
	defer hubSrv.Close()

	work := t.TempDir()
	fifo := filepath.Join(work, "model.gguf")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	url, stop := serveLimited(t, bin, work, hubSrv.URL, model)
	defer stop()

	var idle []net.Conn
	for range 300 {
		c, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
		if err != nil {
			t.Fatalf("connection %d: %v", len(idle)+1, err)
		}
		idle = append(idle, c)
	}
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	if status, b := send(t, client, "GET", url+"/health", "", nil); status != 200 {
		t.Fatalf("/health with 300 idle connections open: %d %s", status, b)
	}

	refused := []string{"/etc/passwd", "/etc", fifo, "org/name", filepath.Join(work, "absent.gguf")}
	bodies := map[string]string{}
	for _, name := range refused {
		body := `{"model":"` + name + `","messages":[{"role":"user","content":"hi"}]}`
		start := time.Now()
		status, b := send(t, client, "POST", url+"/v1/chat/completions", body, map[string]string{"Content-Type": "application/json"})
		d := time.Since(start)
		if status != 404 || !bytes.Contains(b, []byte(`"model_not_found"`)) {
			t.Errorf("model %s: %d %s", name, status, b)
		}
		if d > 100*time.Millisecond {
			t.Errorf("model %s: answered after %v, want within 100 ms", name, d)
		}
		if bytes.Contains(b, []byte("root")) || bytes.Contains(b, []byte("config.json")) || bytes.Contains(b, []byte("GGUF")) {
			t.Errorf("model %s: the answer tells of the file: %s", name, b)
		}
		bodies[name] = strings.ReplaceAll(string(b), name, "NAME")
	}
	// Whether a file exists must not show: every refusal reads the same.
	for _, name := range refused {
		if bodies[name] != bodies[refused[len(refused)-1]] {
			t.Errorf("the refusals differ:\n%s\n%s", bodies[name], bodies[refused[len(refused)-1]])
		}
	}
	if n := hubCalls.Load(); n != 0 {
		t.Errorf("the server called the hub %d times", n)
	}

	status, b := send(t, client, "POST", url+"/v1/chat/completions",
		`{"model":"llama-tiny-Q8_0","messages":[{"role":"user","content":"hi"}],"max_tokens":2}`,
		map[string]string{"Host": "rebind.evil.example", "Origin": "http://evil.example", "Content-Type": "text/plain"})
	if status != 403 && status != 415 && status != 421 {
		t.Errorf("a foreign Host with text/plain: %d %s", status, b)
	}
	// A grammar nested two million levels deep (4 MB, under the body cap).
	const depth = 2_000_000
	grammar := `root ::= ` + strings.Repeat("(", depth) + `\"a\"` + strings.Repeat(")", depth)
	status, b = send(t, client, "POST", url+"/v1/chat/completions",
		`{"model":"llama-tiny-Q8_0","messages":[{"role":"user","content":"hi"}],"max_tokens":2,"grammar":"`+grammar+`"}`,
		map[string]string{"Content-Type": "application/json"})
	if status < 400 || status >= 500 || bytes.Contains(b, []byte("invalid_json")) {
		t.Errorf("a grammar nested %d deep: %d %.300s", depth, status, b)
	}
	status, b = send(t, client, "POST", url+"/v1/chat/completions",
		`{"model":"llama-tiny-Q8_0","messages":[{"role":"user","content":"hi"}],"max_tokens":2}`,
		map[string]string{"Content-Type": "application/json"})
	if status != 200 {
		t.Errorf("the served model after the attack: %d %s", status, b)
	}
}

// serveLimited starts `mlx serve model` with at most 256 open files, a
// fresh state folder and the hub at hubURL, and waits until it answers.
func serveLimited(t *testing.T, bin, work, hubURL, model string) (string, func()) {
	t.Helper()
	port := freePort(t)
	return startServer(t, port, []string{"sh", "-c", `ulimit -n 256 && exec "$0" "$@"`, bin, "serve", model,
		"--port", fmt.Sprint(port), "--threads", "1", "--ctx", "256"},
		"MLX_HOME="+filepath.Join(work, "home"), "HF_HUB_CACHE="+filepath.Join(work, "hf"), "HF_ENDPOINT="+hubURL)
}

// freePort returns a loopback port nothing listens on.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startServer runs argv, an mlx server on port, with env added to a clean
// environment (no hub access, no key, no host or port from the caller's),
// and waits until its /health answers 200. It returns its URL and a stop
// function that also logs its output when the test failed.
func startServer(t *testing.T, port int, argv []string, env ...string) (string, func()) {
	t.Helper()
	var logs bytes.Buffer
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "HF_HUB_OFFLINE=", "HF_TOKEN=", "MLX_API_KEY=", "MLX_HOST=", "MLX_PORT=", "MLX_UPSTREAM=")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("output of %s:\n%s", strings.Join(argv, " "), logs.String())
		}
	}
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		if resp, err := http.Get(url + "/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return url, stop
			}
		}
		select {
		case err := <-exited:
			t.Fatalf("mlx serve exited: %v\n%s", err, logs.String())
		case <-ctx.Done():
			stop()
			t.Fatal("mlx serve did not become ready within a minute")
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// send makes one request and returns the status and body.
func send(t *testing.T, client *http.Client, method, url, body string, header map[string]string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}
