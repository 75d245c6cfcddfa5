package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/catalog"
	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server"
)

func TestPortOf(t *testing.T) {
	cases := []struct {
		in   string
		want int
		ok   bool
	}{
		{"8080", 8080, true},
		{"127.0.0.1:9000", 9000, true},
		{"http://localhost:8081/", 8081, true},
		{"nope", 0, false},
		{"70000", 0, false},
	}
	for _, c := range cases {
		got, err := portOf(c.in)
		if got != c.want || (err == nil) != c.ok {
			t.Errorf("portOf(%q) = %d, %v", c.in, got, err)
		}
	}
}

func TestPickServers(t *testing.T) {
	a := serverRecord{PID: 1, Port: 8080, URL: "http://127.0.0.1:8080"}
	b := serverRecord{PID: 2, Port: 8081, URL: "http://127.0.0.1:8081"}
	cases := []struct {
		name string
		recs []serverRecord
		args []string
		all  bool
		want []serverRecord
	}{
		{"none running", nil, nil, false, nil},
		{"the only one", []serverRecord{a}, nil, false, []serverRecord{a}},
		{"ambiguous", []serverRecord{a, b}, nil, false, nil},
		{"by port", []serverRecord{a, b}, []string{"8081"}, false, []serverRecord{b}},
		{"unknown port", []serverRecord{a}, []string{"9999"}, false, nil},
		{"all", []serverRecord{a, b}, nil, true, []serverRecord{a, b}},
	}
	for _, c := range cases {
		got, err := pickServers(c.recs, c.args, c.all)
		if !reflect.DeepEqual(got, c.want) || (err == nil) != (c.want != nil) {
			t.Errorf("%s: got %v, %v", c.name, got, err)
		}
	}
}

func TestWithoutDetach(t *testing.T) {
	got := withoutDetach([]string{"serve", "-d", "m", "--detach", "--port", "1", "--detach=true"})
	if want := []string{"serve", "m", "--port", "1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestRecords(t *testing.T) {
	for _, home := range []string{"plain", "glob [x]*?"} {
		t.Run(home, func(t *testing.T) {
			t.Setenv("MLX_HOME", filepath.Join(t.TempDir(), home))
			testRecords(t)
		})
	}
}

func testRecords(t *testing.T) {
	t.Helper()
	dir, err := serveDir()
	if err != nil {
		t.Fatal(err)
	}
	health := fakeHealth(t, os.Getpid())
	sleeper, sleeperExited := startSleeper(t)
	alive := serverRecord{PID: os.Getpid(), Host: "127.0.0.1", Port: 8080, URL: health}
	gone := serverRecord{PID: 1 << 30, Host: "127.0.0.1", Port: 8081, URL: "http://127.0.0.1:8081"}
	reused := serverRecord{PID: sleeper, Host: "127.0.0.1", Port: 8083, URL: closedURL(t)}
	taken := serverRecord{PID: sleeper, Host: "127.0.0.1", Port: 8084, URL: health}
	for _, r := range []serverRecord{alive, gone, reused, taken} {
		if err := writeRecord(dir, r); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(recordPath(dir, 8082), []byte("{not json"), 0o644)
	recs, err := runningServers()
	if err != nil || len(recs) != 1 || recs[0].Port != 8080 {
		t.Fatalf("running %v, %v: want only the live one", recs, err)
	}
	for _, port := range []int{8081, 8082, 8083, 8084} {
		if _, err := os.Stat(recordPath(dir, port)); err == nil {
			t.Errorf("stale record of port %d kept", port)
		}
	}
	select {
	case <-sleeperExited:
		t.Error("checking the records stopped an unrelated process")
	case <-time.After(100 * time.Millisecond):
	}
	removeRecord(dir, 8080, 12345) // not its pid: kept
	removeRecord(dir, 8080, os.Getpid())
	if _, err := os.Stat(recordPath(dir, 8080)); err == nil {
		t.Error("record not removed")
	}
}

// mlx stop with a record whose PID is now an unrelated process leaves that
// process alone and removes the record.
func TestStopSparesUnrelatedProcess(t *testing.T) {
	t.Setenv("MLX_HOME", t.TempDir())
	dir, err := serveDir()
	if err != nil {
		t.Fatal(err)
	}
	sleeper, exited := startSleeper(t)
	r := serverRecord{PID: sleeper, Host: "127.0.0.1", Port: 8090, URL: closedURL(t)}
	if err := writeRecord(dir, r); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, "stop", "8090"); err == nil {
		t.Error("stop succeeded")
	}
	if err := stopServer(r, time.Second); err == nil || !strings.Contains(err.Error(), "removed its record") {
		t.Errorf("stopServer: %v", err)
	}
	select {
	case <-exited:
		t.Fatal("mlx stop killed an unrelated process")
	case <-time.After(100 * time.Millisecond):
	}
	if _, err := os.Stat(recordPath(dir, 8090)); err == nil {
		t.Error("stale record kept")
	}
}

// fakeHealth serves a /health that reports pid, and returns its address.
func fakeHealth(t *testing.T, pid int) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"status":"ok","pid":%d}`, pid)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// startSleeper starts a process that is no mlx server, stopped with the
// test, and returns its pid and a channel closed when it exits.
func startSleeper(t *testing.T) (int, <-chan struct{}) {
	t.Helper()
	if goruntime.GOOS == "windows" {
		t.Skip("needs sleep")
	}
	cmd := exec.Command("sleep", "1000")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-exited })
	return cmd.Process.Pid, exited
}

// TestEngineModel loads the Qwen3 fixture through the adapter and checks
// the chat template, tokens and prompt log-probabilities.
func TestEngineModel(t *testing.T) {
	dir := fixture.Path(t, "models", "qwen3-tiny")
	l := newServeLoader(runtime.Options{Ctx: 256, Threads: 1}, nil, catalog.Options{Named: []string{dir}})
	sm, err := l.Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer sm.Close()
	m := sm.(*server.EngineModel)
	info := m.Info()
	if info.Context != 256 || info.VocabSize != 151936 || info.ToolFormat != "hermes" || info.Format != "safetensors" {
		t.Errorf("info %+v", info)
	}
	text, err := m.RenderChat(context.Background(), []server.ChatMessage{{Role: "user", Content: "Hi"}}, server.ChatOptions{AddGenerationPrompt: true})
	if err != nil || !strings.HasSuffix(text, "<|im_start|>assistant\n") {
		t.Errorf("rendered %q, %v", text, err)
	}
	cont, err := m.RenderChat(context.Background(), []server.ChatMessage{{Role: "user", Content: "Hi"}, {Role: "assistant", Content: "Hel"}},
		server.ChatOptions{AddGenerationPrompt: true, ContinueFinalMessage: true})
	if err != nil || !strings.HasSuffix(cont, "Hel") {
		t.Errorf("continue_final_message rendered %q, %v", cont, err)
	}
	own, err := m.RenderChat(context.Background(), []server.ChatMessage{{Role: "user", Content: "Hi"}},
		server.ChatOptions{Template: "{% for m in messages %}{{ m.content }}{% endfor %}{{ eos_token }}"})
	if err != nil || own != "Hi<|im_end|>" {
		t.Errorf("request template rendered %q, %v", own, err)
	}
	ids := m.Tokenize("The capital of France", false)
	if got := m.Detokenize(ids, false); got != "The capital of France" {
		t.Errorf("round trip %q", got)
	}
	lps, err := m.PromptLogprobs(context.Background(), ids, 3)
	if err != nil || len(lps) != len(ids)-1 {
		t.Fatalf("%d prompt logprobs (%v), want %d", len(lps), err, len(ids)-1)
	}
	for i, lp := range lps {
		if lp.ID != ids[i+1] || lp.Logprob > 0 || len(lp.Top) != 3 || lp.Top[0].Logprob < lp.Logprob {
			t.Errorf("entry %d: %+v", i, lp)
		}
	}
	if _, err := l.Load(context.Background(), dir+"-missing"); err == nil {
		t.Error("a missing model loaded")
	}
}
