package runtime

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// hybridPrompts returns the prompts of the trained Qwen3.5 model's
// reference cases (its linear-attention layers keep a recurrent state).
func hybridPrompts(t *testing.T) []Request {
	t.Helper()
	var rep trainedReport
	readJSON(t, filepath.Join(fixturePath(t, "trained", "qwen3.5"), "train-report.json"), &rep)
	var reqs []Request
	for _, c := range rep.Reference {
		p := greedy(len(c.Rows))
		p.Logprobs = true
		reqs = append(reqs, Request{Prompt: c.IDs[:c.Rows[0].Pos+1], Params: p})
	}
	return reqs
}

// TestHybridBatching runs the trained Qwen3.5 model's prompts twice at
// once, with a step budget that computes them in chunks beside decoding
// sequences: each stream has a recurrent state of its own and gives the
// tokens and log-probabilities of the same request run alone.
func TestHybridBatching(t *testing.T) {
	prompts := hybridPrompts(t)
	single := loadWith(t, Options{}, "trained", "qwen3.5")
	alone := make([]outcome, len(prompts))
	for i := range prompts {
		alone[i] = generateAll(single, prompts[i:i+1])[0]
		if alone[i].err != nil || len(alone[i].ids) == 0 {
			t.Fatalf("prompt %d alone: %v, %v", i, alone[i].ids, alone[i].err)
		}
	}
	reqs := append(slices.Clone(prompts), prompts...)
	e := loadWith(t, Options{Parallel: len(reqs), Batch: 8}, "trained", "qwen3.5")
	for i, o := range generateAll(e, reqs) {
		sameStream(t, fmt.Sprintf("stream %d", i), o, alone[i%len(prompts)])
	}
	if st := e.Stats(); st.KVBlocksUsed != 0 || st.Running != 0 || st.Waiting != 0 {
		t.Errorf("after the streams: %+v", st)
	}
}

// sameStream checks that a stream gave the tokens of want, with
// log-probabilities within 1e-3.
func sameStream(t *testing.T, name string, got, want outcome) {
	t.Helper()
	if got.err != nil || !slices.Equal(got.ids, want.ids) {
		t.Errorf("%s: %v (%v), want %v", name, got.ids, got.err, want.ids)
		return
	}
	for k := range got.logprobs {
		if d := abs(float64(got.logprobs[k] - want.logprobs[k])); d > 1e-3 {
			t.Errorf("%s token %d: logprob %v, want %v", name, k, got.logprobs[k], want.logprobs[k])
			return
		}
	}
}

// TestHybridRefusals checks what a model with recurrent state does not
// do: beam search is refused with a clear error, and so is a draft model
// with linear-attention layers (drafting goes back over tokens).
func TestHybridRefusals(t *testing.T) {
	req := hybridPrompts(t)[0]
	e := loadWith(t, Options{}, "trained", "qwen3.5")
	beam := req
	beam.Beam = &BeamSearch{Width: 2}
	if _, err := e.Generate(context.Background(), beam, func(Event) error { return nil }); !errors.Is(err, ErrInvalidRequest) {
		t.Errorf("beam search: %v, want ErrInvalidRequest", err)
	}
	_, err := Load(context.Background(), fixturePath(t, "trained", "qwen3.5"),
		Options{Threads: 2, Ctx: 256, Spec: SpecOptions{Draft: fixturePath(t, "trained", "qwen3.5")}})
	if !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), "linear-attention") {
		t.Errorf("hybrid draft model: %v, want ErrOptions naming its linear-attention layers", err)
	}
	// A KV budget that the recurrent states (one per sequence, three
	// snapshots per sequence) leave no block of.
	st := 4 * int64(e.model.StateElems()) * 4
	_, err = Load(context.Background(), fixturePath(t, "trained", "qwen3.5"), Options{Threads: 2, Ctx: 256, Parallel: 1, KVMem: st + 1000})
	if !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), "recurrent state") {
		t.Errorf("KV budget taken by the recurrent states: %v, want ErrOptions naming them", err)
	}
}

// TestHybridFollowUp runs a conversation's second turn, which repeats the
// first turn's prompt and answer: it finds nearly all of them in the
// prefix cache (the state snapshot at the first turn's end, with the KV
// blocks of its positions), and answers as an engine that computes the
// whole prompt.
func TestHybridFollowUp(t *testing.T) {
	refs := hybridPrompts(t)
	var long []int32 // a first turn longer than a cache block
	for len(long) <= BlockSize {
		for _, r := range refs {
			long = append(long, r.Prompt...)
		}
	}
	for _, first := range [][]int32{refs[0].Prompt, long} {
		e := loadWith(t, Options{Ctx: 512}, "trained", "qwen3.5")
		turn1 := generateAll(e, []Request{{Prompt: first, Params: greedy(12)}})[0]
		if turn1.err != nil {
			t.Fatal(turn1.err)
		}
		shared := append(slices.Clone(first), turn1.ids...)
		second := Request{Prompt: append(slices.Clone(shared), refs[1].Prompt...), Params: greedy(12)}
		turn2 := generateAll(e, []Request{second})[0]
		fresh := generateAll(loadWith(t, Options{Ctx: 512}, "trained", "qwen3.5"), []Request{second})[0]
		if turn2.err != nil || fresh.err != nil || !slices.Equal(turn2.ids, fresh.ids) {
			t.Errorf("%d-token first turn: second turn %v (%v), without the cache %v (%v)",
				len(first), turn2.ids, turn2.err, fresh.ids, fresh.err)
		}
		if got := turn2.res.Usage.Cached; got < len(shared)*9/10 || got >= len(second.Prompt) {
			t.Errorf("%d-token first turn: %d cached tokens of %d shared", len(first), got, len(shared))
		}
		t.Logf("%d-token first turn: %d of %d shared tokens cached", len(first), turn2.res.Usage.Cached, len(shared))
		if fresh.res.Usage.Cached != 0 {
			t.Errorf("fresh engine: %d cached tokens", fresh.res.Usage.Cached)
		}
	}
}

// TestHybridRepeat runs a prompt twice: the second run finds all of it
// but its last token (computed again for its logits) in the snapshot
// taken before that token, and gives the same tokens. A prompt that goes
// on after the first one otherwise than its answer (a template that
// renders the answer anew) finds the first prompt whole.
func TestHybridRepeat(t *testing.T) {
	refs := hybridPrompts(t)
	req := refs[1]
	e := loadWith(t, Options{}, "trained", "qwen3.5")
	first, again := generateAll(e, []Request{req})[0], generateAll(e, []Request{req})[0]
	if first.err != nil || again.err != nil || !slices.Equal(first.ids, again.ids) {
		t.Errorf("second run %v (%v), first %v (%v)", again.ids, again.err, first.ids, first.err)
	}
	if got, want := again.res.Usage.Cached, len(req.Prompt)-1; got != want {
		t.Errorf("second run: %d cached tokens, want %d", got, want)
	}
	other := Request{Prompt: append(slices.Clone(req.Prompt), refs[0].Prompt...), Params: greedy(8)}
	got := generateAll(e, []Request{other})[0]
	want := generateAll(loadWith(t, Options{}, "trained", "qwen3.5"), []Request{other})[0]
	if got.err != nil || !slices.Equal(got.ids, want.ids) || got.res.Usage.Cached != len(req.Prompt) {
		t.Errorf("prompt going on otherwise: %v (%v), %d cached; without the cache %v", got.ids, got.err, got.res.Usage.Cached, want.ids)
	}
}
