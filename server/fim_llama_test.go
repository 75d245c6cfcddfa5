package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/server/llamacpp"
)

// TestFIMPromptMatchesLlamaServer sends fill-in-the-middle requests to
// llama-server (LLAMA_BIN_DIR names a llama.cpp build with it) and checks
// that fimPrompt builds the prompt it builds: the same number of tokens
// and the same text, special tokens included, for a model with repository
// tokens (qwen3-tiny), with and without extra files, and with a prefix
// and suffix long enough to be cut, and extra files that the context
// cuts.
func TestFIMPromptMatchesLlamaServer(t *testing.T) {
	dir := os.Getenv("LLAMA_BIN_DIR")
	if dir == "" {
		t.Skip("LLAMA_BIN_DIR (a llama.cpp build with llama-server) is not set")
	}
	bin := filepath.Join(dir, "llama-server")
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("no llama-server in LLAMA_BIN_DIR: %v", err)
	}
	gguf := fixture.Path(t, "gguf", "qwen3-tiny-F16.gguf")
	const ctxLen, nPredict = 8192, 4
	url := startLlamaServer(t, bin, "-m", gguf, "-c", fmt.Sprint(ctxLen), "-np", "1", "-t", "1")
	m := loadEngine(t, "gguf", "qwen3-tiny-F16.gguf")

	long := func(line string, n int) string { return strings.Repeat(line, n) }
	cases := []fimInput{
		{prefix: "def add(a, b):\n    ", suffix: "\n\nprint(add(1, 2))\n"},
		{prefix: "def add(a, b):\n    <|im_end|>", suffix: "\n", prompt: "return",
			extra: []llamacpp.Chunk{{Filename: "util.py", Text: "import os\n"}, {Filename: "tmp", Text: "x = 1\n"}}},
		{prefix: long("a = 1\n", 700), suffix: long("b = 2\n", 300), prompt: "c"},
		{prefix: long("a = 1\n", 100), suffix: long("b = 2\n", 50),
			extra: []llamacpp.Chunk{{Filename: "big.py", Text: long("d = 4\n", 3000)}}},
	}
	for i, in := range cases {
		extra := append([]llamacpp.Chunk{}, in.extra...) // llama-server takes no null
		body, _ := json.Marshal(map[string]any{"input_prefix": in.prefix, "input_suffix": in.suffix, "prompt": in.prompt,
			"input_extra": extra, "n_predict": nPredict, "temperature": 0})
		resp, err := http.Post(url+"/infill", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			Prompt          string `json:"prompt"`
			TokensEvaluated int    `json:"tokens_evaluated"`
		}
		var raw bytes.Buffer
		_, err = raw.ReadFrom(resp.Body)
		resp.Body.Close()
		if err == nil {
			err = json.Unmarshal(raw.Bytes(), &res)
		}
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("case %d: llama-server: status %d, %v: %.300s", i, resp.StatusCode, err, raw.Bytes())
		}
		ids, err := fimPrompt(m, in, ctxLen, nPredict)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Detokenize(ids, false); len(ids) != res.TokensEvaluated || got != res.Prompt {
			t.Errorf("case %d: %d tokens, llama-server %d; text equal: %v\n got %.300q\nwant %.300q", i, len(ids), res.TokensEvaluated, got == res.Prompt, got, res.Prompt)
		}
	}
}

// startLlamaServer runs llama-server with args on a free loopback port
// until the test ends and returns its URL once it is ready.
func startLlamaServer(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, append(args, "--host", "127.0.0.1", "--port", fmt.Sprint(port))...)
	logPath := filepath.Join(t.TempDir(), "llama-server.log")
	log, err := os.Create(logPath)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	defer log.Close()
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
	})
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(url + "/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return url
			}
		}
	}
	out, _ := os.ReadFile(logPath)
	t.Fatalf("llama-server did not start:\n%s", out)
	return ""
}
