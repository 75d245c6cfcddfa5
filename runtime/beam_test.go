package runtime

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/sample"
)

// beamRun runs a beam search and returns its result.
func beamRun(t *testing.T, e *Engine, prompt []int32, p sample.Params, b BeamSearch) Result {
	t.Helper()
	events := 0
	res, err := e.Generate(context.Background(), Request{Prompt: prompt, Params: p, Beam: &b}, func(Event) error {
		events++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if events != 0 {
		t.Errorf("a beam search emitted %d events", events)
	}
	checkNoLeak(t, e)
	return res
}

// loadBeams loads the float32 llama fixture with cache blocks for 16
// sequences of 256 positions.
func loadBeams(t *testing.T, kv kvcache.Type) *Engine {
	t.Helper()
	return loadWith(t, Options{Parallel: 8, KVType: kv}, "gguf", "llama-tiny-F32.gguf")
}

// checkBeams checks the beams of a search of at most budget tokens: ranked
// by score, distinct, those ending for length at the budget.
func checkBeams(t *testing.T, name string, beams []Beam, budget int) {
	t.Helper()
	for i, b := range beams {
		if b.Finish == FinishLength && len(b.Tokens) != budget {
			t.Errorf("%s beam %d: %d tokens ending for length, want %d", name, i, len(b.Tokens), budget)
		}
		if i > 0 && b.Score > beams[i-1].Score {
			t.Errorf("%s: beam %d scores %.5f above beam %d (%.5f)", name, i, b.Score, i-1, beams[i-1].Score)
		}
		for _, o := range beams[:i] {
			if slices.Equal(o.Tokens, b.Tokens) && o.StopToken == b.StopToken {
				t.Errorf("%s: beam %d repeats an earlier one: %v", name, i, b.Tokens)
			}
		}
	}
}

// checkNoLeak fails when a sequence still holds KV cache blocks.
func checkNoLeak(t *testing.T, e *Engine) {
	t.Helper()
	if s := e.Stats(); s.KVBlocksUsed != 0 || s.Running != 0 {
		t.Errorf("after the request: %d KV blocks used, %d sequences running; want 0", s.KVBlocksUsed, s.Running)
	}
}

// scoreBeam returns the sum of the log-probabilities of the beam's tokens
// (and its stop token) after prompt, measured with Score.
func scoreBeam(t *testing.T, e *Engine, prompt []int32, b Beam) float64 {
	t.Helper()
	gen := slices.Clone(b.Tokens)
	if b.StopToken >= 0 {
		gen = append(gen, b.StopToken)
	}
	ids := append(slices.Clone(prompt), gen...)
	var sum float64
	var lsm []float32
	err := e.Score(context.Background(), ids[:len(ids)-1], len(prompt)-1, func(i int, logits []float32) error {
		lsm = sample.LogSoftmax(lsm, logits)
		sum += float64(lsm[ids[i+1]])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// greedyLogprob runs greedy decoding and returns its tokens and the sum of
// their log-probabilities.
func greedyLogprob(t *testing.T, e *Engine, prompt []int32, n int) ([]int32, float64, Result) {
	t.Helper()
	p := greedy(n)
	p.Logprobs = true
	ids, _, events, res := collect(t, e, Request{Prompt: prompt, Params: p})
	var sum float64
	for _, ev := range events {
		for _, lp := range ev.Logprobs {
			sum += float64(lp.Logprob)
		}
	}
	return ids, sum, res
}

// TestBeamWidthOneIsGreedy checks that one beam follows greedy decoding.
func TestBeamWidthOneIsGreedy(t *testing.T) {
	e := loadBeams(t, kvcache.F32)
	for _, c := range readReference(t, "llama-tiny-F32.json", "f32kv-nofa") {
		want, _, greedyRes := greedyLogprob(t, e, c.PromptIDs, 12)
		res := beamRun(t, e, c.PromptIDs, greedy(12), BeamSearch{Width: 1, LengthPenalty: 1})
		if len(res.Beams) != 1 || !slices.Equal(res.Beams[0].Tokens, want) {
			t.Fatalf("%s: beams %+v, want the greedy tokens %v", c.Name, res.Beams, want)
		}
		if res.Finish != greedyRes.Finish || res.Usage.Completion != greedyRes.Usage.Completion {
			t.Errorf("%s: finish %q after %d tokens, greedy %q after %d", c.Name, res.Finish, res.Usage.Completion, greedyRes.Finish, greedyRes.Usage.Completion)
		}
		if text := e.Tokenizer().Decode(want, true); res.Beams[0].Text != text {
			t.Errorf("%s: text %q, want %q", c.Name, res.Beams[0].Text, text)
		}
	}
}

// TestBeamBeatsGreedy checks that wider searches find sequences at least as
// probable as greedy decoding, that the log-probabilities they report are
// the model's (measured again with Score), and that the beams are
// distinct and ranked by score.
func TestBeamBeatsGreedy(t *testing.T) {
	e := loadBeams(t, kvcache.F32)
	c := readReference(t, "llama-tiny-F32.json", "f32kv-nofa")[0]
	_, greedySum, _ := greedyLogprob(t, e, c.PromptIDs, 10)
	for _, width := range []int{2, 4, 8} {
		p := greedy(10)
		p.Logprobs = true
		res := beamRun(t, e, c.PromptIDs, p, BeamSearch{Width: width, N: width})
		if len(res.Beams) != width {
			t.Fatalf("width %d: %d beams", width, len(res.Beams))
		}
		if best := res.Beams[0].Logprob; best < greedySum-1e-4 {
			t.Errorf("width %d: best beam logprob %.5f below greedy's %.5f", width, best, greedySum)
		}
		for i, b := range res.Beams {
			if got := scoreBeam(t, e, c.PromptIDs, b); math.Abs(got-b.Logprob) > 1e-3 {
				t.Errorf("width %d beam %d: logprob %.5f, Score gives %.5f", width, i, b.Logprob, got)
			}
			if len(b.Logprobs) != len(b.Tokens) {
				t.Errorf("width %d beam %d: %d logprobs for %d tokens", width, i, len(b.Logprobs), len(b.Tokens))
			}
		}
		checkBeams(t, fmt.Sprintf("width %d", width), res.Beams, 10)
	}
}

// TestBeamLengthPenalty checks that every hypothesis is scored as
// logprob / length^length_penalty and ranked by that score, with stop
// tokens making hypotheses of several lengths.
func TestBeamLengthPenalty(t *testing.T) {
	e := loadBeams(t, kvcache.F32)
	c := readReference(t, "llama-tiny-F32.json", "f32kv-nofa")[0]
	lengths := map[int]bool{}
	for _, lp := range []float64{-1, 0, 1, 3} {
		for _, early := range []EarlyStopping{StopHeuristic, StopEarly, StopNever} {
			p := greedy(12)
			p.StopTokenIDs = c.GeneratedIDs[3:5] // frequent tokens end hypotheses early
			res := beamRun(t, e, c.PromptIDs, p, BeamSearch{Width: 4, N: 4, LengthPenalty: lp, EarlyStopping: early})
			for i, b := range res.Beams {
				n := len(b.Tokens)
				if b.StopToken >= 0 {
					n++
				}
				if want := b.Logprob / math.Pow(float64(n), lp); math.Abs(b.Score-want) > 1e-9 {
					t.Errorf("penalty %g rule %d beam %d: score %g, want %g / %d^%g = %g", lp, early, i, b.Score, b.Logprob, n, lp, want)
				}
				if (b.StopToken >= 0) != (b.Finish == FinishStop) {
					t.Errorf("penalty %g rule %d beam %d: finish %q, stop token %d", lp, early, i, b.Finish, b.StopToken)
				}
				if i > 0 && b.Score > res.Beams[i-1].Score {
					t.Errorf("penalty %g rule %d: beam %d outranks beam %d", lp, early, i, i-1)
				}
				lengths[n] = true
			}
			checkBeams(t, fmt.Sprintf("penalty %g rule %d", lp, early), res.Beams, 12)
		}
	}
	if len(lengths) < 3 {
		t.Errorf("hypotheses of lengths %v: want several", lengths)
	}
}

// TestBeamGroups checks diverse beam search: groups without a penalty are
// independent searches that find the same beams; with a large penalty no
// group repeats the tokens of an earlier group.
func TestBeamGroups(t *testing.T) {
	e := loadBeams(t, kvcache.F32)
	c := readReference(t, "llama-tiny-F32.json", "f32kv-nofa")[1]
	same := beamRun(t, e, c.PromptIDs, greedy(6), BeamSearch{Width: 4, N: 4, Groups: 2})
	solo := beamRun(t, e, c.PromptIDs, greedy(6), BeamSearch{Width: 2, N: 2})
	for i, b := range same.Beams {
		if o := solo.Beams[i/2]; !slices.Equal(b.Tokens, o.Tokens) {
			t.Errorf("no penalty: beam %d is %v, want %v (each group's search is the width-2 one)", i, b.Tokens, o.Tokens)
		}
	}
	diverse := beamRun(t, e, c.PromptIDs, greedy(6), BeamSearch{Width: 4, N: 4, Groups: 2, DiversityPenalty: 100})
	top2 := firstTokens(t, e, c.PromptIDs, 2)
	var others int
	for _, b := range diverse.Beams {
		if slices.ContainsFunc(solo.Beams[:2], func(o Beam) bool { return slices.Equal(o.Tokens, b.Tokens) }) {
			if b.Score != b.Logprob {
				t.Errorf("first group's beam %v: score %g, want its logprob %g", b.Tokens, b.Score, b.Logprob)
			}
			continue // the first group is not penalized: it is the width-2 search
		}
		others++
		if slices.Contains(top2, b.Tokens[0]) || b.Score > b.Logprob {
			t.Errorf("second group's beam %v (score %g, logprob %g) starts with a token the first group chose, %v, or scores above its logprob", b.Tokens, b.Score, b.Logprob, top2)
		}
	}
	if others != 2 {
		t.Errorf("%d beams beside the first group's two, want 2", others)
	}
}

// firstTokens returns the n most probable tokens after prompt.
func firstTokens(t *testing.T, e *Engine, prompt []int32, n int) []int32 {
	t.Helper()
	var ids []int32
	err := e.Score(context.Background(), prompt, len(prompt)-1, func(_ int, logits []float32) error {
		for _, x := range sample.TopK(nil, logits, n) {
			ids = append(ids, x.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// TestBeamBesideSampling runs beam searches beside a greedy stream: each
// gives what it gives alone, and no cache block stays used.
func TestBeamBesideSampling(t *testing.T) {
	e := loadWith(t, Options{Parallel: 3, KVType: kvcache.F32}, "gguf", "llama-tiny-F32.gguf")
	cases := readReference(t, "llama-tiny-F32.json", "f32kv-nofa")
	b := BeamSearch{Width: 3, N: 2, LengthPenalty: 1}
	alone := beamRun(t, e, cases[0].PromptIDs, greedy(8), b)
	want := cases[1].GeneratedIDs[:8]
	out := generateAll(e, []Request{
		{Prompt: cases[0].PromptIDs, Params: greedy(8), Beam: &b},
		{Prompt: cases[1].PromptIDs, Params: greedy(8)},
		{Prompt: cases[0].PromptIDs, Params: greedy(8), Beam: &b},
	})
	for i, o := range out {
		if o.err != nil {
			t.Fatalf("request %d: %v", i, o.err)
		}
	}
	if !slices.Equal(out[1].ids, want) {
		t.Errorf("greedy beside beams: %v, want %v", out[1].ids, want)
	}
	for _, i := range []int{0, 2} {
		for k, bm := range out[i].res.Beams {
			if !slices.Equal(bm.Tokens, alone.Beams[k].Tokens) {
				t.Errorf("request %d beam %d: %v, alone %v", i, k, bm.Tokens, alone.Beams[k].Tokens)
			}
		}
	}
	checkNoLeak(t, e)
}

// TestBeamCancelled cancels a running beam search: it ends cancelled and
// frees every block.
func TestBeamCancelled(t *testing.T) {
	e := loadBeams(t, kvcache.F16)
	c := readReference(t, "llama-tiny-F32.json", "f32kv-nofa")[0]
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for e.Stats().Running < 4 && ctx.Err() == nil {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	p := greedy(200)
	p.IgnoreEOS = true
	res, err := e.Generate(ctx, Request{Prompt: c.PromptIDs, Params: p, Beam: &BeamSearch{Width: 4}}, func(Event) error { return nil })
	if !errors.Is(err, context.Canceled) || res.Finish != FinishCancelled {
		t.Fatalf("err %v, finish %q; want cancelled", err, res.Finish)
	}
	checkNoLeak(t, e)
}

// TestBeamInvalid checks the errors of bad beam searches.
func TestBeamInvalid(t *testing.T) {
	e := loadEngine(t, kvcache.F16, "gguf", "llama-tiny-F32.gguf")
	prompt := []int32{1, 2, 3}
	tests := []struct {
		name string
		b    BeamSearch
	}{
		{"no beam", BeamSearch{Width: 0}},
		{"too wide", BeamSearch{Width: 1000}},
		{"n above width", BeamSearch{Width: 2, N: 3}},
		{"groups", BeamSearch{Width: 4, Groups: 3}},
		{"nan penalty", BeamSearch{Width: 2, LengthPenalty: math.NaN()}},
		{"negative diversity", BeamSearch{Width: 2, Groups: 2, DiversityPenalty: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.Generate(context.Background(), Request{Prompt: prompt, Params: greedy(4), Beam: &tt.b}, func(Event) error { return nil })
			if !errors.Is(err, ErrInvalidRequest) {
				t.Errorf("err %v, want ErrInvalidRequest", err)
			}
		})
	}
	checkNoLeak(t, e)
}

// TestBeamWithSpeculation checks that an engine drafting tokens by prompt
// lookup leaves beam searches as they are.
func TestBeamWithSpeculation(t *testing.T) {
	plain := loadBeams(t, kvcache.F32)
	spec := loadWith(t, Options{Parallel: 8, KVType: kvcache.F32, Spec: SpecOptions{Lookup: 4}}, "gguf", "llama-tiny-F32.gguf")
	c := readReference(t, "llama-tiny-F32.json", "f32kv-nofa")[0]
	b := BeamSearch{Width: 4, N: 4, LengthPenalty: 1}
	want := beamRun(t, plain, c.PromptIDs, greedy(16), b)
	got := beamRun(t, spec, c.PromptIDs, greedy(16), b)
	for i := range want.Beams {
		if !slices.Equal(got.Beams[i].Tokens, want.Beams[i].Tokens) {
			t.Errorf("beam %d: %v with speculation, %v without", i, got.Beams[i].Tokens, want.Beams[i].Tokens)
		}
	}
}

// TestBeamCacheFull runs beam searches on a cache of two blocks: too few
// for four beams (an error up front), and two beams that outgrow it end
// for length where the blocks ran out.
func TestBeamCacheFull(t *testing.T) {
	e := loadEngine(t, kvcache.F16, "gguf", "llama-tiny-F32.gguf")
	prompt := promptOf(120, 1)
	_, err := e.Generate(context.Background(), Request{Prompt: prompt, Params: greedy(4), Beam: &BeamSearch{Width: 4}}, func(Event) error { return nil })
	if !errors.Is(err, ErrContextLength) {
		t.Errorf("4 beams in 2 blocks: err %v, want ErrContextLength", err)
	}
	p := greedy(40)
	p.IgnoreEOS = true
	res := beamRun(t, e, prompt, p, BeamSearch{Width: 2, N: 2})
	for i, b := range res.Beams {
		if b.Finish != FinishLength || len(b.Tokens) != BlockSize-len(prompt)+1 {
			t.Errorf("beam %d: %d tokens, finish %q; want %d, length", i, len(b.Tokens), b.Finish, BlockSize-len(prompt)+1)
		}
	}
}

// TestBeamSearchesCrowded runs two wide beam searches that do not fit in
// one forward pass together: the second waits for the first, and both
// give what they give alone.
func TestBeamSearchesCrowded(t *testing.T) {
	e := loadWith(t, Options{Parallel: 16, KVType: kvcache.F32}, "gguf", "llama-tiny-F32.gguf")
	cases := readReference(t, "llama-tiny-F32.json", "f32kv-nofa")
	b := BeamSearch{Width: 10, N: 3, LengthPenalty: 1}
	var alone []Result
	for _, c := range cases[:2] {
		alone = append(alone, beamRun(t, e, c.PromptIDs, greedy(6), b))
	}
	out := generateAll(e, []Request{
		{Prompt: cases[0].PromptIDs, Params: greedy(6), Beam: &b},
		{Prompt: cases[1].PromptIDs, Params: greedy(6), Beam: &b},
	})
	if n := e.Stats().Preemptions; n == 0 {
		t.Errorf("no search went back to the queue; want the second to wait for room")
	}
	for i, o := range out {
		if o.err != nil {
			t.Fatalf("search %d: %v", i, o.err)
		}
		for k, bm := range o.res.Beams {
			if !slices.Equal(bm.Tokens, alone[i].Beams[k].Tokens) {
				t.Errorf("search %d beam %d: %v, alone %v", i, k, bm.Tokens, alone[i].Beams[k].Tokens)
			}
		}
	}
	checkNoLeak(t, e)
}

// TestStopLogprob checks that a sampled sequence ending with a stop token
// reports that token's log-probability, as Score measures it, so that its
// cumulative log-probability (which ranks best_of) is complete.
func TestStopLogprob(t *testing.T) {
	e := loadBeams(t, kvcache.F32)
	c := readReference(t, "llama-tiny-F32.json", "f32kv-nofa")[0]
	p := greedy(10)
	p.Logprobs = true
	p.StopTokenIDs = c.GeneratedIDs[3:4]
	ids, _, _, res := collect(t, e, Request{Prompt: c.PromptIDs, Params: p})
	if res.StopToken != c.GeneratedIDs[3] || len(ids) != 3 {
		t.Fatalf("stopped by %d after %v; want %d after 3 tokens", res.StopToken, ids, c.GeneratedIDs[3])
	}
	want := scoreBeam(t, e, c.PromptIDs, Beam{Tokens: ids, StopToken: res.StopToken}) - scoreBeam(t, e, c.PromptIDs, Beam{Tokens: ids, StopToken: -1})
	if math.Abs(float64(res.StopLogprob)-want) > 1e-4 {
		t.Errorf("stop token logprob %g, Score gives %g", res.StopLogprob, want)
	}
}
