//go:build unix

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/fixture"
)

// TestUpstream runs two mlx servers, the binary MLX_E2E_BIN names (CI
// builds it): the upstream serves the qwen3-tiny fixture, the front serves
// it as up/MODEL through --upstream. Every API through the front answers
// with the upstream's tokens exactly as the same request made to the
// upstream directly does (greedy decoding), and a client that leaves the
// front cancels the upstream's generation.
func TestUpstream(t *testing.T) {
	bin := os.Getenv("MLX_E2E_BIN")
	if bin == "" {
		t.Skip("set MLX_E2E_BIN to an mlx binary (go build -o /tmp/mlx .) to run the two-server test")
	}
	model := fixture.Path(t, "models", "qwen3-tiny")
	work := t.TempDir()
	env := []string{"MLX_HOME=" + filepath.Join(work, "home"), "HF_HUB_CACHE=" + filepath.Join(work, "hf"), "HF_HUB_OFFLINE=1",
		"UPSTREAM_TEST_KEY=k-" + strconv.Itoa(os.Getpid())}
	backPort, frontPort := freePort(t), freePort(t)
	back, stopBack := startServer(t, backPort, []string{bin, "serve", model, "--port", fmt.Sprint(backPort),
		"--threads", "1", "--ctx", "1024", "--api-key", "k-" + strconv.Itoa(os.Getpid())}, env...)
	defer stopBack()
	front, stopFront := startServer(t, frontPort, []string{bin, "serve", "--port", fmt.Sprint(frontPort),
		"--upstream", "up=" + back + "/v1", "--upstream-key", "up=UPSTREAM_TEST_KEY"}, env...)
	defer stopFront()

	c := &client{t: t, http: &http.Client{Timeout: 2 * time.Minute}, key: "k-" + strconv.Itoa(os.Getpid())}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	c.json(http.MethodGet, back+"/v1/models", "", &list)
	name := list.Data[0].ID
	remote := "up/" + name
	c.waitListed(front, remote)

	same := func(what, path, body string, pick func([]byte) string) {
		t.Helper()
		direct := pick(c.post(back+path, fmt.Sprintf(body, name)))
		relayed := pick(c.post(front+path, fmt.Sprintf(body, remote)))
		if direct != relayed || direct == "" {
			t.Errorf("%s: through the front %q, directly %q", what, relayed, direct)
		}
		t.Logf("%s: %q", what, relayed)
	}
	chat := `{"model":%q,"messages":[{"role":"user","content":"Name a colour."}],"max_tokens":12,"temperature":0}`
	same("chat", "/v1/chat/completions", chat, field("choices", "0", "message", "content"))
	same("streamed chat", "/v1/chat/completions", strings.Replace(chat, `"max_tokens"`, `"stream":true,"max_tokens"`, 1), streamedContent)
	same("messages", "/v1/messages", `{"model":%q,"max_tokens":12,"temperature":0,"messages":[{"role":"user","content":"Hi"}]}`,
		field("content", "0", "text"))
	same("ollama chat", "/api/chat", `{"model":%q,"stream":false,"options":{"temperature":0,"num_predict":12},"messages":[{"role":"user","content":"Hi"}]}`,
		field("message", "content"))
	chain := func(base, model string) string {
		first := field("id")(c.post(base+"/v1/responses", fmt.Sprintf(`{"model":%q,"input":"One.","max_output_tokens":8,"temperature":0}`, model)))
		return field("output_text")(c.post(base+"/v1/responses",
			fmt.Sprintf(`{"model":%q,"input":"Two.","previous_response_id":%q,"max_output_tokens":8,"temperature":0}`, model, first)))
	}
	if d, r := chain(back, name), chain(front, remote); d != r || d == "" {
		t.Errorf("responses chain: through the front %q, directly %q", r, d)
	}

	ps := exec.Command(bin, "ps")
	ps.Env = append(os.Environ(), env...)
	ps.Env = append(ps.Env, "MLX_API_KEY="+c.key)
	out, err := ps.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "up/* ("+back+")") || !strings.Contains(string(out), "ok, ") {
		t.Errorf("mlx ps (%v) does not show the upstream as ok:\n%s", err, out)
	}
	t.Logf("mlx ps:\n%s", out)

	// mlx run's pipe mode with MLX_UPSTREAM answers as the upstream does.
	run := exec.Command(bin, "run", remote, "Name a colour.", "--temperature", "0", "--max-tokens", "12", "--upstream-key", "up=UPSTREAM_TEST_KEY")
	run.Env = append(os.Environ(), env...)
	run.Env = append(run.Env, "MLX_UPSTREAM=up="+back)
	out, err = run.Output()
	direct := field("choices", "0", "message", "content")(c.post(back+"/v1/chat/completions", fmt.Sprintf(chat, name)))
	if err != nil || strings.TrimSuffix(string(out), "\n") != direct {
		t.Errorf("mlx run (%v) printed %q, the upstream answers %q", err, out, direct)
	}

	// A client that leaves mid-stream cancels the upstream's generation.
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, front+"/v1/chat/completions", strings.NewReader(fmt.Sprintf(
		`{"model":%q,"stream":true,"max_tokens":900,"ignore_eos":true,"messages":[{"role":"user","content":"Count."}]}`, remote)))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	if v := c.metric(front, `mlx_upstream_requests_in_flight{upstream="up"}`); v != 1 {
		t.Errorf("upstream requests in flight while streaming: %v, want 1", v)
	}
	cancel()
	resp.Body.Close()
	deadline := time.Now().Add(20 * time.Second)
	for c.metric(front, `mlx_upstream_requests_in_flight{upstream="up"}`) != 0 || c.metric(back, "mlx_sequences_running") != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the upstream request was not cancelled: in-flight gauges stay above 0")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if v := c.metric(back, `mlx_generated_tokens_total{model="`+name+`"}`); v >= 1000 {
		t.Errorf("the upstream generated %v tokens: it went on after the client left", v)
	}
}

// client makes the test's requests, with the upstream's key (the front
// needs none).
type client struct {
	t    *testing.T
	http *http.Client
	key  string
}

func (c *client) do(method, url, body string) []byte {
	c.t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.key)
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		c.t.Fatalf("%s %s %s: %d %s", method, url, body, resp.StatusCode, b)
	}
	return b
}

func (c *client) post(url, body string) []byte { return c.do(http.MethodPost, url, body) }

func (c *client) json(method, url, body string, out any) {
	c.t.Helper()
	if err := json.Unmarshal(c.do(method, url, body), out); err != nil {
		c.t.Fatal(err)
	}
}

// waitListed waits until the front lists model (its first look at the
// upstream runs in the background).
func (c *client) waitListed(front, model string) {
	c.t.Helper()
	for range 200 {
		if strings.Contains(string(c.do(http.MethodGet, front+"/v1/models", "")), strconv.Quote(model)) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	c.t.Fatalf("the front does not list %s", model)
}

// metric is the value of a series of /metrics (-1 when absent).
func (c *client) metric(base, series string) float64 {
	c.t.Helper()
	for _, line := range strings.Split(string(c.do(http.MethodGet, base+"/metrics", "")), "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err == nil {
				return f
			}
		}
	}
	return -1
}

// field picks a string out of a JSON body by its path of keys and
// indexes.
func field(path ...string) func([]byte) string {
	return func(b []byte) string {
		var v any
		if json.Unmarshal(b, &v) != nil {
			return ""
		}
		for _, k := range path {
			switch x := v.(type) {
			case map[string]any:
				v = x[k]
			case []any:
				i, _ := strconv.Atoi(k)
				if i >= len(x) {
					return ""
				}
				v = x[i]
			}
		}
		s, _ := v.(string)
		return s
	}
}

// streamedContent joins the content deltas of a chat completion stream.
func streamedContent(b []byte) string {
	var out strings.Builder
	for _, line := range strings.Split(string(b), "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		out.WriteString(field("choices", "0", "delta", "content")([]byte(data)))
	}
	return out.String()
}
