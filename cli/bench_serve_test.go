package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mlxrun/mlx/runtime"
)

// TestBenchServe drives a live server with the load tool and checks the
// report, as text and JSON.
func TestBenchServe(t *testing.T) {
	s := startLive(t, runtime.Options{Parallel: 4})
	tests := []struct {
		name              string
		chat              bool
		temperature, topP float64
	}{
		{"completions, greedy", false, 0, 1},
		{"chat, greedy", true, 0, 1},
		{"completions, sampled", false, 0.8, 0.9},
	}
	for _, tt := range tests {
		o := benchServeOptions{url: s.url, concurrency: 4, requests: 8, maxTokens: 6, promptTokens: 20, seed: 1, turns: 1,
			timeout: time.Minute, chat: tt.chat, temperature: tt.temperature, topP: tt.topP}
		rep, err := runBenchServe(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Errors != 0 || rep.CompletionTokens != 8*6 || rep.Model != "llama-tiny-Q8_0" || rep.TokensPerSecond <= 0 || rep.DecodeTokensPerSecond <= 0 ||
			rep.TTFTP50 <= 0 || rep.TTFTP99 < rep.TTFTP50 || rep.ITLP50 <= 0 || rep.ITLP99 < rep.ITLP50 {
			t.Errorf("%s: report %+v", tt.name, rep)
		}
		var text bytes.Buffer
		rep.print(&text)
		if !strings.Contains(text.String(), "tokens/s") || !strings.Contains(text.String(), "errors        0") {
			t.Errorf("printed report:\n%s", text.String())
		}
	}
	s.waitIdle(t)
}

// TestBenchServeTurns runs conversations of three turns: the later turns
// find the earlier ones in the prefix cache. The cache has room for both
// conversations beside the running turns (with only Parallel × Ctx, a
// running turn could evict the other conversation's blocks).
func TestBenchServeTurns(t *testing.T) {
	s := startLive(t, runtime.Options{Parallel: 2, KVMem: 64 << 20})
	for _, chat := range []bool{false, true} {
		o := benchServeOptions{url: s.url, concurrency: 2, requests: 2, maxTokens: 8, promptTokens: 60, seed: 3, turns: 3, timeout: time.Minute, chat: chat}
		rep, err := runBenchServe(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Errors != 0 || rep.Requests != 6 || rep.FirstTurnTTFTP50 <= 0 || rep.LaterTurnsTTFTP50 <= 0 || rep.LaterTurnsCachedPc < 70 {
			t.Errorf("chat %v: report %+v", chat, rep)
		}
		var text bytes.Buffer
		rep.print(&text)
		if !strings.Contains(text.String(), "cached") {
			t.Errorf("printed report:\n%s", text.String())
		}
	}
	// A short new question: the later turns are almost all the shared
	// conversation, and found in the cache.
	o := benchServeOptions{url: s.url, concurrency: 1, requests: 1, maxTokens: 8, promptTokens: 180, questionTokens: 2, seed: 4, turns: 2, timeout: time.Minute}
	rep, err := runBenchServe(context.Background(), o)
	if err != nil || rep.Errors != 0 || rep.LaterTurnsCachedPc < 90 {
		t.Errorf("--question-tokens 2: report %+v, %v; want later turns at least 90%% cached", rep, err)
	}
}

// TestBenchServeCountsRefusals loads a server whose queue is smaller than
// the clients: the requests refused with 429 count as errors, the others
// complete.
func TestBenchServeCountsRefusals(t *testing.T) {
	s := startLive(t, runtime.Options{Parallel: 1, Queue: 1})
	o := benchServeOptions{url: s.url, concurrency: 6, requests: 6, maxTokens: 200, promptTokens: 20, seed: 2, turns: 1, timeout: time.Minute}
	rep, err := runBenchServe(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors == 0 || rep.Errors > 4 || rep.CompletionTokens != (6-rep.Errors)*200 || !strings.Contains(rep.ErrorSamples[0], "429") ||
		!strings.Contains(rep.ErrorSamples[0], "max-queue") {
		t.Errorf("report %+v, want 2 to 5 requests completed and the others refused with 429", rep)
	}
	b, err := json.Marshal(rep)
	if err != nil || !bytes.Contains(b, []byte(`"ttft_p99_ms"`)) {
		t.Errorf("JSON %s, %v", b, err)
	}
}

func TestBenchPromptsDiffer(t *testing.T) {
	a, b := benchPrompt(1, 0, 50), benchPrompt(1, 1, 50)
	if a == b || benchPrompt(1, 0, 50) != a || len(strings.Fields(a)) != 49 {
		t.Errorf("prompts %q and %q: want distinct, repeatable, 49 words", a, b)
	}
}

// TestCovered checks the union of the streams' decoding spans.
func TestCovered(t *testing.T) {
	at := func(ms int) time.Time { return time.Unix(0, 0).Add(time.Duration(ms) * time.Millisecond) }
	tests := []struct {
		name  string
		spans []span
		want  time.Duration
	}{
		{"none", nil, 0},
		{"one", []span{{at(10), at(30)}}, 20 * time.Millisecond},
		{"overlapping, out of order", []span{{at(20), at(50)}, {at(0), at(30)}}, 50 * time.Millisecond},
		{"nested", []span{{at(0), at(100)}, {at(10), at(20)}}, 100 * time.Millisecond},
		{"apart", []span{{at(0), at(10)}, {at(40), at(45)}}, 15 * time.Millisecond},
		{"touching", []span{{at(0), at(10)}, {at(10), at(15)}}, 15 * time.Millisecond},
	}
	for _, tt := range tests {
		if got := covered(tt.spans); got != tt.want {
			t.Errorf("%s: covered = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestBenchServeWaitsForModel asks a server that lists no model for its
// first few answers, as mlx serve does while it loads one: the load tool
// waits for the model within --wait, gives up after it, and does not wait
// on an answer that will not change (404).
func TestBenchServeWaitsForModel(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n := calls.Add(1); {
		case r.URL.Path != "/v1/models":
			http.NotFound(w, r)
		case n <= 3:
			fmt.Fprint(w, `{"object":"list","data":[]}`)
		default:
			fmt.Fprint(w, `{"object":"list","data":[{"id":"loaded-model"}]}`)
		}
	}))
	defer srv.Close()
	client := srv.Client()
	o := benchServeOptions{url: srv.URL, wait: 10 * time.Second}
	id, err := firstModel(context.Background(), client, o)
	if err != nil || id != "loaded-model" || calls.Load() != 4 {
		t.Errorf("firstModel = %q, %v after %d calls; want loaded-model after 4", id, err, calls.Load())
	}

	calls.Store(0)
	o.wait = 0
	if id, err := firstModel(context.Background(), client, o); err == nil || calls.Load() != 1 {
		t.Errorf("with no wait: %q, %v after %d calls; want an error after 1", id, err, calls.Load())
	}

	calls.Store(0)
	o.url, o.wait = srv.URL+"/elsewhere", 10*time.Second
	if id, err := firstModel(context.Background(), client, o); err == nil || !strings.Contains(err.Error(), "404") || calls.Load() != 1 {
		t.Errorf("on a 404: %q, %v after %d calls; want an error naming 404 after 1", id, err, calls.Load())
	}
}
