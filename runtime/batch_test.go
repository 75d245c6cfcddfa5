package runtime

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mlxrun/mlx/runtime/kvcache"
)

// loadWith loads a fixture model with options (two threads, a context of
// 256 unless set).
func loadWith(t testing.TB, opt Options, elem ...string) *Engine {
	t.Helper()
	opt.Threads = max(opt.Threads, 2)
	if opt.Ctx == 0 {
		opt.Ctx = 256
	}
	e, err := Load(context.Background(), fixturePath(t, elem...), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// outcome is what one generation gave.
type outcome struct {
	ids      []int32
	logprobs []float32 // of each generated token
	res      Result
	err      error
}

// generateAll runs the requests at once and returns their outcomes.
func generateAll(e *Engine, reqs []Request) []outcome {
	out := make([]outcome, len(reqs))
	var wg sync.WaitGroup
	for i, req := range reqs {
		wg.Go(func() {
			o := &out[i]
			o.res, o.err = e.Generate(context.Background(), req, func(ev Event) error {
				o.ids = append(o.ids, ev.Tokens...)
				for _, lp := range ev.Logprobs {
					o.logprobs = append(o.logprobs, lp.Logprob)
				}
				return nil
			})
		})
	}
	wg.Wait()
	return out
}

// TestBatchedDecodingMatchesSingle runs every reference prompt twice at
// once, with a step budget small enough that prompts are computed in
// chunks beside the decoding sequences, and checks each stream against
// the same request run alone: the same greedy tokens, and the same
// log-probabilities within the tolerance of the cache type.
func TestBatchedDecodingMatchesSingle(t *testing.T) {
	tests := []struct {
		name string
		kv   kvcache.Type
		tol  float64
	}{
		{"f32 cache", kvcache.F32, 1e-4},
		// Alone, a sequence's attention over halves accumulates in halves
		// as llama.cpp's does; batched with others, in float32.
		{"f16 cache", kvcache.F16, 0.03},
	}
	cases := readReference(t, "llama-tiny-F32.json", "f32kv-nofa")
	var reqs []Request
	for range 2 {
		for _, c := range cases {
			p := greedy(len(c.GeneratedIDs))
			p.Logprobs = true
			reqs = append(reqs, Request{Prompt: c.PromptIDs, Params: p})
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			single := loadWith(t, Options{KVType: tt.kv}, "gguf", "llama-tiny-F32.gguf")
			alone := make([]outcome, len(cases))
			for i := range cases {
				alone[i] = generateAll(single, reqs[i:i+1])[0]
			}
			e := loadWith(t, Options{KVType: tt.kv, Parallel: len(reqs), Batch: 8}, "gguf", "llama-tiny-F32.gguf")
			for i, o := range generateAll(e, reqs) {
				want := alone[i%len(cases)]
				if o.err != nil || !slices.Equal(o.ids, want.ids) {
					t.Errorf("stream %d: %v, %v; alone %v", i, o.ids, o.err, want.ids)
					continue
				}
				for k := range o.logprobs {
					if d := abs(float64(o.logprobs[k] - want.logprobs[k])); d > tt.tol {
						t.Errorf("stream %d token %d: logprob %v, alone %v", i, k, o.logprobs[k], want.logprobs[k])
					}
				}
			}
			if st := e.Stats(); st.KVBlocksUsed != 0 || st.Running != 0 || st.Waiting != 0 {
				t.Errorf("after the streams: %+v", st)
			}
		})
	}
}

// TestPrefillDoesNotStallDecoding starts a long prompt while another
// sequence decodes, with a step budget of 16 tokens: the prompt is
// computed in chunks of 15, and the running sequence gets a token at
// each of those steps.
func TestPrefillDoesNotStallDecoding(t *testing.T) {
	e := loadWith(t, Options{Parallel: 2, Batch: 16}, "gguf", "llama-tiny-Q8_0.gguf")
	p := greedy(120)
	p.IgnoreEOS = true
	var mu sync.Mutex
	var times []time.Time
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := e.Generate(context.Background(), Request{Prompt: promptOf(8, 1), Params: p}, func(Event) error {
			mu.Lock()
			defer mu.Unlock()
			if times = append(times, time.Now()); len(times) == 1 {
				close(started)
			}
			return nil
		})
		done <- err
	}()
	<-started
	begin := time.Now()
	var first time.Time
	_, err := e.Generate(context.Background(), Request{Prompt: promptOf(150, 2), Params: greedy(1)}, func(Event) error {
		first = time.Now()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	during := 0
	for _, tm := range times {
		if tm.After(begin) && tm.Before(first) {
			during++
		}
	}
	// Events reach emit on the caller's goroutine, a little after their
	// step: half the chunks leave room for that lag.
	if chunks := (150 + 14) / 15; during < chunks/2 {
		t.Errorf("%d tokens of the running sequence while a prompt of %d chunks was computed, want at least %d", during, chunks, chunks/2)
	}
}

// TestBatchedSamplingMatchesSingle runs seeded sampled requests (their
// draws split across the pool within a step) all at once and checks that
// each generates what it generates alone, over a float32 cache.
func TestBatchedSamplingMatchesSingle(t *testing.T) {
	tests := []struct {
		name       string
		temp, topP float64
		logprobs   bool
	}{
		{"temperature", 0.8, 1, false},
		{"top_p with logprobs", 1, 0.9, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var reqs []Request
			for i := range 6 {
				p := greedy(24)
				p.Temperature, p.TopP, p.Logprobs, p.IgnoreEOS = tt.temp, tt.topP, tt.logprobs, true
				s := int64(i + 1)
				p.Seed = &s
				reqs = append(reqs, Request{Prompt: promptOf(12+i, i), Params: p})
			}
			single := loadWith(t, Options{KVType: kvcache.F32}, "gguf", "llama-tiny-F32.gguf")
			batched := loadWith(t, Options{KVType: kvcache.F32, Parallel: len(reqs)}, "gguf", "llama-tiny-F32.gguf")
			together := generateAll(batched, reqs)
			for i, o := range together {
				want := generateAll(single, reqs[i:i+1])[0]
				if o.err != nil || want.err != nil || !slices.Equal(o.ids, want.ids) {
					t.Errorf("request %d batched: %v, %v; alone: %v, %v", i, o.ids, o.err, want.ids, want.err)
				}
				if tt.logprobs && len(o.logprobs) != len(o.ids) {
					t.Errorf("request %d: %d logprobs for %d tokens", i, len(o.logprobs), len(o.ids))
				}
			}
		})
	}
}
