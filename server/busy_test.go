package server

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/runtime"
)

// engineFake is a fake model with an engine's queue and stats.
type engineFake struct {
	*fakeModel
	busy  error
	stats runtime.Stats
}

func (f *engineFake) Busy() error          { return f.busy }
func (f *engineFake) Stats() runtime.Stats { return f.stats }

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
