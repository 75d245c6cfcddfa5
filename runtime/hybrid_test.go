package runtime

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
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
		want := alone[i%len(prompts)]
		if o.err != nil || !slices.Equal(o.ids, want.ids) {
			t.Errorf("stream %d: %v, %v; alone %v", i, o.ids, o.err, want.ids)
			continue
		}
		for k := range o.logprobs {
			if d := abs(float64(o.logprobs[k] - want.logprobs[k])); d > 1e-3 {
				t.Errorf("stream %d token %d: logprob %v, alone %v", i, k, o.logprobs[k], want.logprobs[k])
			}
		}
	}
	if st := e.Stats(); st.KVBlocksUsed != 0 || st.Running != 0 || st.Waiting != 0 {
		t.Errorf("after the streams: %+v", st)
	}
}

// TestHybridRefusals checks what a model with recurrent state does not
// do: beam search is refused with a clear error, a draft model at load,
// and prompt lookup is left off (the same tokens as without).
func TestHybridRefusals(t *testing.T) {
	req := hybridPrompts(t)[0]
	e := loadWith(t, Options{}, "trained", "qwen3.5")
	beam := req
	beam.Beam = &BeamSearch{Width: 2}
	if _, err := e.Generate(context.Background(), beam, func(Event) error { return nil }); !errors.Is(err, ErrInvalidRequest) {
		t.Errorf("beam search: %v, want ErrInvalidRequest", err)
	}
	lookup := req
	n := 4
	lookup.Spec.LookupTokens = &n
	got, want := generateAll(e, []Request{lookup})[0], generateAll(e, []Request{req})[0]
	if got.err != nil || !slices.Equal(got.ids, want.ids) {
		t.Errorf("with prompt lookup: %v, %v; without %v", got.ids, got.err, want.ids)
	}
	_, err := Load(context.Background(), fixturePath(t, "trained", "qwen3.5"),
		Options{Threads: 2, Ctx: 256, Spec: SpecOptions{Draft: fixturePath(t, "trained", "qwen3.5")}})
	if !errors.Is(err, ErrOptions) {
		t.Errorf("draft model: %v, want ErrOptions", err)
	}
}
