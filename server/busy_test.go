package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/sample"
)

// engineFake is a fake model with an engine's queue and stats.
type engineFake struct {
	*fakeModel
	busy  error
	stats runtime.Stats
}

func (f *engineFake) Reserve(context.Context) (*runtime.Reservation, error) { return nil, f.busy }
func (f *engineFake) Stats() runtime.Stats                                  { return f.stats }

// engineLoader loads one engineFake named "m".
type engineLoader struct{ m *engineFake }

func (l engineLoader) Load(context.Context, string) (Model, error) { return l.m, nil }

func startEngineFake(t *testing.T) (*testServer, *engineFake) {
	t.Helper()
	f := &engineFake{fakeModel: newFake("ab")}
	f.id = "m"
	return start(t, engineLoader{f}, Options{}), f
}

// TestBusyIs429 checks that a full queue is answered 429, with
// Retry-After and the setting to raise, before a stream starts.
func TestBusyIs429(t *testing.T) {
	ts, f := startEngineFake(t)
	f.busy = fmt.Errorf("%w: 68 requests already run or wait", runtime.ErrBusy)
	for _, body := range []string{
		`{"model":"m",` + userHi + `}`,
		`{"model":"m","stream":true,` + userHi + `}`,
	} {
		status, b, h := ts.do(t, "POST", "/v1/chat/completions", body)
		e := decodeErr(t, b).Error
		if status != 429 || h.Get("Retry-After") != "1" || !strings.Contains(e.Message, "--max-queue") || !strings.Contains(e.Message, "68 requests") {
			t.Errorf("%s: %d %s (Retry-After %q)", body, status, b, h.Get("Retry-After"))
		}
	}
	status, b, _ := ts.do(t, "POST", "/v1/responses", `{"model":"m","input":"hi","stream":true}`)
	if status != 429 {
		t.Errorf("responses: %d %s", status, b)
	}
	f.busy = nil
	if status, b, _ := ts.do(t, "POST", "/v1/chat/completions", `{"model":"m",`+userHi+`}`); status != 200 {
		t.Errorf("with room again: %d %s", status, b)
	}
}

// TestEngineMetrics checks that /metrics exports the engine's KV cache
// blocks and queue.
func TestEngineMetrics(t *testing.T) {
	ts, f := startEngineFake(t)
	f.stats = runtime.Stats{Running: 2, Waiting: 3, KVBlocks: 64, KVBlocksUsed: 5, KVBlocksCached: 7, CachedTokens: 96, Preemptions: 1}
	if status, b, _ := ts.do(t, "POST", "/v1/chat/completions", `{"model":"m",`+userHi+`}`); status != 200 {
		t.Fatalf("chat: %d %s", status, b)
	}
	_, b, _ := ts.do(t, "GET", "/metrics", "")
	for _, want := range []string{
		`mlx_kv_cache_blocks{model="m"} 64`, `mlx_kv_cache_blocks_used{model="m"} 5`, `mlx_kv_cache_blocks_cached{model="m"} 7`,
		`mlx_engine_sequences_running{model="m"} 2`, `mlx_engine_requests_waiting{model="m"} 3`,
		`mlx_prompt_cached_tokens_total{model="m"} 96`, `mlx_engine_preemptions_total{model="m"} 1`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// racedModel serves a real engine and, when a request starts generating,
// has another client take the queue's last place first, as a client that
// arrives between the queue check and the engine's admission does.
type racedModel struct {
	*EngineModel
	e     *runtime.Engine
	other chan error // the other client's result
}

func (m *racedModel) Generate(ctx context.Context, req runtime.Request, emit func(runtime.Event) error) (runtime.Result, error) {
	go func() {
		_, err := m.e.Generate(context.Background(), req, func(runtime.Event) error { return nil })
		m.other <- err
	}()
	for m.e.Busy() == nil { // until the other client holds the last place
		time.Sleep(time.Millisecond)
	}
	return m.EngineModel.Generate(ctx, req, emit)
}

func (m *racedModel) Close() error { return nil }

// TestAdmittedRequestKeepsPlace checks that a streamed request that found
// room in the queue runs, though another client takes the last place
// before its generation starts: the place was its own from the check on,
// and the other client is the one refused.
func TestAdmittedRequestKeepsPlace(t *testing.T) {
	e, err := runtime.Load(context.Background(), fixture.Path(t, "gguf", "llama-tiny-Q8_0.gguf"), runtime.Options{Ctx: 256, Threads: 1, Parallel: 1, Queue: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	em, err := NewEngineModel(e)
	if err != nil {
		t.Fatal(err)
	}
	m := &racedModel{EngineModel: em, e: e, other: make(chan error, 1)}
	ts := start(t, modelLoader{"m": m}, Options{})
	for _, tt := range []struct{ path, body, done string }{
		{"/v1/completions", `{"model":"m","prompt":"hi","max_tokens":3,"stream":true}`, "[DONE]"},
		{"/api/generate", `{"model":"m","prompt":"hi","options":{"num_predict":3}}`, `"done":true`},
		{"/v1/messages", `{"model":"m","max_tokens":3,"messages":[{"role":"user","content":"hi"}]}`, `"stop_reason"`},
	} {
		running := startRunning(e, em)
		status, b, _ := ts.do(t, "POST", tt.path, tt.body)
		if status != 200 || strings.Contains(string(b), "error") || !strings.Contains(string(b), tt.done) {
			t.Errorf("%s: admitted request: %d %s", tt.path, status, b)
		}
		if err := <-m.other; !errors.Is(err, runtime.ErrBusy) {
			t.Errorf("%s: the client that came later: %v, want ErrBusy", tt.path, err)
		}
		if err := <-running; err != nil {
			t.Errorf("%s: the running request: %v", tt.path, err)
		}
	}
}

// startRunning starts a request that holds one of e's places while a test
// runs, and returns its result.
func startRunning(e *runtime.Engine, em *EngineModel) chan error {
	p := sample.Defaults()
	p.MaxTokens, p.IgnoreEOS = 64, true
	running := make(chan error, 1)
	go func() {
		_, err := e.Generate(context.Background(), runtime.Request{Prompt: em.EncodePrompt("a running request"), Params: p},
			func(runtime.Event) error { return nil })
		running <- err
	}()
	for e.Stats().Running == 0 {
		time.Sleep(time.Millisecond)
	}
	return running
}
