package runtime

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mlxrun/mlx/runtime/kvcache"
)

// promptOf returns n token ids spread over a vocabulary of the fixtures.
func promptOf(n, seed int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32((i*7919 + seed*104729) % 49152)
	}
	return out
}

// TestPrefixCacheMultiTurn runs a second turn whose prompt is the first
// turn's prompt and answer plus a new message: its keys and values are
// found in the cache (all but the last answer token, never computed), and
// it generates what an engine without a cache generates.
func TestPrefixCacheMultiTurn(t *testing.T) {
	e := loadWith(t, Options{KVType: kvcache.F32}, "gguf", "llama-tiny-F32.gguf")
	c := readReference(t, "llama-tiny-F32.json", "f32kv-nofa")[2]
	ids, _, _, first := collect(t, e, Request{Prompt: c.PromptIDs, Params: greedy(24)})
	if first.Usage.Cached != 0 {
		t.Errorf("first turn: %d cached tokens, want 0", first.Usage.Cached)
	}
	shared := len(c.PromptIDs) + len(ids)
	turn2 := append(append(slices.Clone(c.PromptIDs), ids...), c.PromptIDs[:9]...)
	got, _, _, res := collect(t, e, Request{Prompt: turn2, Params: greedy(16)})
	if res.Usage.Cached < shared*9/10 || res.Usage.Cached >= len(turn2) {
		t.Errorf("second turn: %d cached tokens of a shared prefix of %d, want at least 90%%", res.Usage.Cached, shared)
	}
	if res.Timings.PrefillTokens != len(turn2)-res.Usage.Cached {
		t.Errorf("second turn computed %d prompt tokens, want %d", res.Timings.PrefillTokens, len(turn2)-res.Usage.Cached)
	}
	fresh := loadWith(t, Options{KVType: kvcache.F32}, "gguf", "llama-tiny-F32.gguf")
	want, _, _, _ := collect(t, fresh, Request{Prompt: turn2, Params: greedy(16)})
	if !slices.Equal(got, want) {
		t.Errorf("second turn from the cache: %v, without: %v", got, want)
	}
}

// TestChoicesShareThePrompt runs three requests of one prompt at once, as
// the n choices of one API request run: the prompt is computed once, the
// others share its full blocks and copy its last one.
func TestChoicesShareThePrompt(t *testing.T) {
	e := loadWith(t, Options{Parallel: 3}, "gguf", "llama-tiny-Q8_0.gguf")
	prompt := promptOf(BlockSize+70, 1)
	req := Request{Prompt: prompt, Params: greedy(8)}
	outs := generateAll(e, []Request{req, req, req})
	var cached []int
	for i, o := range outs {
		if o.err != nil || !slices.Equal(o.ids, outs[0].ids) {
			t.Fatalf("choice %d: %v, %v; choice 0 %v", i, o.ids, o.err, outs[0].ids)
		}
		cached = append(cached, o.res.Usage.Cached)
	}
	slices.Sort(cached)
	if all := len(prompt) - 1; cached[0] != 0 || cached[1] != all || cached[2] != all {
		t.Errorf("cached tokens %v, want one 0 and two %d", cached, all)
	}
}

// TestCachePressure runs more sequences than the KV cache holds at once:
// the latest admitted wait or go back to the queue, and every one still
// generates what it generates alone (a float32 model and cache, so that
// computing the tokens of a sequence taken back in one batch gives the
// same numbers as computing them a step at a time); a prompt larger than
// the whole cache is refused.
func TestCachePressure(t *testing.T) {
	const blocks = 5
	blockBytes := kvcache.BlockBytes(kvcache.F32, 2, 2, 16, BlockSize)
	opt := Options{Parallel: 4, KVMem: blocks * blockBytes, Batch: 64, Ctx: (blocks + 1) * BlockSize, KVType: kvcache.F32}
	e := loadWith(t, opt, "gguf", "llama-tiny-F32.gguf")
	var reqs []Request
	for i := range 4 {
		p := greedy(40)
		p.IgnoreEOS = true
		reqs = append(reqs, Request{Prompt: promptOf(BlockSize-20+i, i), Params: p})
	}
	alone := loadWith(t, Options{KVType: kvcache.F32}, "gguf", "llama-tiny-F32.gguf")
	for i, o := range generateAll(e, reqs) {
		want := generateAll(alone, reqs[i:i+1])[0]
		if o.err != nil || !slices.Equal(o.ids, want.ids) || o.res.Finish != FinishLength {
			t.Errorf("sequence %d: %v (%v, %q); alone %v", i, o.ids, o.err, o.res.Finish, want.ids)
		}
	}
	if st := e.Stats(); st.KVBlocksUsed != 0 || st.KVBlocks != blocks || st.Preemptions == 0 {
		t.Errorf("after the sequences: %+v", st)
	}
	_, err := e.Generate(context.Background(), Request{Prompt: promptOf(blocks*BlockSize+1, 9), Params: greedy(1)}, func(Event) error { return nil })
	if !errors.Is(err, ErrContextLength) || !strings.Contains(err.Error(), "KV cache") {
		t.Errorf("a prompt beyond the cache: %v, want ErrContextLength naming the KV cache", err)
	}
}

// TestWaitingRequestCancelled cancels a request while it waits for a
// running one, and checks that a full queue refuses at once.
func TestWaitingRequestCancelled(t *testing.T) {
	e := loadWith(t, Options{Parallel: 1, Queue: 1}, "gguf", "llama-tiny-Q8_0.gguf")
	runCtx, stopRun := context.WithCancel(context.Background())
	defer stopRun()
	p := greedy(0)
	p.IgnoreEOS = true
	started := make(chan struct{})
	ran := make(chan error, 1)
	go func() {
		var once bool
		_, err := e.Generate(runCtx, Request{Prompt: promptOf(4, 1), Params: p}, func(Event) error {
			if !once {
				once = true
				close(started)
			}
			return nil
		})
		ran <- err
	}()
	<-started
	waitCtx, cancelWait := context.WithCancel(context.Background())
	waited := make(chan error, 1)
	go func() {
		_, err := e.Generate(waitCtx, Request{Prompt: promptOf(4, 2), Params: greedy(1)}, func(Event) error { return nil })
		waited <- err
	}()
	waitQueued(t, e)
	if _, err := e.Generate(context.Background(), Request{Prompt: promptOf(4, 3), Params: greedy(1)}, nil); !errors.Is(err, ErrBusy) {
		t.Errorf("with the queue full: %v, want ErrBusy", err)
	}
	cancelWait()
	select {
	case err := <-waited:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled while waiting: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting request did not end when cancelled")
	}
	if e.Busy() != nil {
		t.Error("the queue is still full after the waiting request left")
	}
	stopRun()
	if err := <-ran; !errors.Is(err, context.Canceled) {
		t.Errorf("running request: %v", err)
	}
}
