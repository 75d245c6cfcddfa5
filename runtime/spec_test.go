package runtime

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/runtime/grammar"
	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/sample"
)

// specPrompts are the reference prompts and a repetitive one.
func specPrompts(t *testing.T) map[string][]int32 {
	t.Helper()
	out := map[string][]int32{}
	for _, c := range readReference(t, "llama-tiny-F32.json", "f32kv-nofa") {
		out[c.Name] = c.PromptIDs
	}
	var rep []int32
	for range 6 {
		rep = append(rep, out["capital"]...)
	}
	out["repeat"] = rep
	return out
}

func intp(v int) *int           { return &v }
func floatp(v float64) *float64 { return &v }

// specOf asks for draft and lookup tokens per step, drafting without a
// confidence threshold.
func specOf(draft, lookup int) Speculation {
	return Speculation{DraftTokens: intp(draft), LookupTokens: intp(lookup), Confidence: floatp(0)}
}

// sameOutput checks that a speculative run gave what a plain one did.
func sameOutput(t *testing.T, name string, got, want []int32, text, wantText string, res, wantRes Result) {
	t.Helper()
	if !slices.Equal(got, want) || text != wantText {
		t.Errorf("%s: generated %v %q, want %v %q", name, got, text, want, wantText)
	}
	if res.Usage.Prompt != wantRes.Usage.Prompt || res.Usage.Completion != wantRes.Usage.Completion || res.Finish != wantRes.Finish ||
		res.StopString != wantRes.StopString || res.StopToken != wantRes.StopToken || res.Timings.DecodeTokens != wantRes.Timings.DecodeTokens {
		t.Errorf("%s: result %+v, want %+v", name, res, wantRes)
	}
}

// TestSpeculationKeepsGreedyOutput checks that greedy generation gives the
// same tokens, text, usage and finish with and without speculation: the
// model as its own draft (every draft accepted), a quantized copy as
// draft, prompt lookup (on a model whose greedy output loops), and draft
// and lookup together.
func TestSpeculationKeepsGreedyOutput(t *testing.T) {
	llama := []string{"gguf", "llama-tiny-F32.gguf"}
	qwen := []string{"gguf", "qwen3-tiny-F16.gguf"}
	tests := []struct {
		name     string
		model    []string
		draft    string
		spec     Speculation
		allAgree bool // every proposed token is accepted
	}{
		{"self-draft", llama, fixturePath(t, llama...), specOf(4, 0), true},
		{"quantized-draft", llama, fixturePath(t, "gguf", "llama-tiny-Q4_0.gguf"), specOf(5, 0), false},
		{"lookup", qwen, "", specOf(0, 6), false},
		{"draft-and-lookup", llama, fixturePath(t, "gguf", "llama-tiny-Q4_0.gguf"), specOf(3, 4), false},
	}
	prompts := specPrompts(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plain := loadWith(t, Options{KVType: kvcache.F32}, tt.model...)
			e := loadWith(t, Options{KVType: kvcache.F32, Spec: SpecOptions{Draft: tt.draft}}, tt.model...)
			var total SpecStats
			for name, prompt := range prompts {
				if slices.Equal(tt.model, qwen) && name != "capital" {
					continue // the large vocabulary makes it slow: a prompt whose output loops
				}
				want, wantText, _, wantRes := collect(t, plain, Request{Prompt: prompt, Params: greedy(60)})
				got, text, events, res := collect(t, e, Request{Prompt: prompt, Params: greedy(60), Spec: tt.spec})
				sameOutput(t, name, got, want, text, wantText, res, wantRes)
				if tt.allAgree && res.Spec.Accepted != res.Spec.Proposed {
					t.Errorf("%s: %d of %d proposed tokens accepted, want all", name, res.Spec.Accepted, res.Spec.Proposed)
				}
				if len(events)+res.Spec.Accepted != len(got) {
					t.Errorf("%s: %d events for %d tokens with %d accepted: want an event per step", name, len(events), len(got), res.Spec.Accepted)
				}
				total.Proposed += res.Spec.Proposed
				total.Accepted += res.Spec.Accepted
			}
			t.Logf("%d proposed, %d accepted", total.Proposed, total.Accepted)
			if total.Accepted == 0 {
				t.Error("no proposed token was accepted")
			}
		})
	}
}

// TestSpeculationStops checks that stop tokens, stop strings, max_tokens,
// logprobs and seeded sampling behave as without speculation when many
// tokens are accepted at once.
func TestSpeculationStops(t *testing.T) {
	model := []string{"gguf", "llama-tiny-F32.gguf"}
	plain := loadWith(t, Options{KVType: kvcache.F32}, model...)
	e := loadWith(t, Options{KVType: kvcache.F32, Spec: SpecOptions{Draft: fixturePath(t, model...), DraftTokens: 6}}, model...)
	prompt := specPrompts(t)["chat"]
	full, _, _, _ := collect(t, plain, Request{Prompt: prompt, Params: greedy(40)})
	stopStr := plain.Tokenizer().Decode(full[13:15], true)
	tests := []struct {
		name string
		edit func(p *sample.Params)
	}{
		{"max_tokens", func(p *sample.Params) { p.MaxTokens = 9 }},
		{"stop token", func(p *sample.Params) { p.StopTokenIDs = []int32{full[17]} }},
		{"stop string", func(p *sample.Params) { p.Stop = []string{stopStr} }},
		{"stop string included", func(p *sample.Params) { p.Stop, p.IncludeStopStrInOutput = []string{stopStr}, true }},
		{"logprobs", func(p *sample.Params) { p.Logprobs, p.TopLogprobs = true, 3 }},
		{"seeded sampling", func(p *sample.Params) {
			seed := int64(11)
			p.Temperature, p.TopK, p.Seed = 0.9, 40, &seed
		}},
		{"repetition penalty", func(p *sample.Params) { p.RepetitionPenalty = 1.3 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := greedy(40)
			tt.edit(&p)
			want, wantText, wantEvents, wantRes := collect(t, plain, Request{Prompt: prompt, Params: p})
			got, text, events, res := collect(t, e, Request{Prompt: prompt, Params: p})
			sameOutput(t, tt.name, got, want, text, wantText, res, wantRes)
			if res.Spec.Proposed == 0 {
				t.Error("nothing was proposed")
			}
			if p.Logprobs {
				var lp, wantLP []Logprob
				for _, ev := range events {
					lp = append(lp, ev.Logprobs...)
				}
				for _, ev := range wantEvents {
					wantLP = append(wantLP, ev.Logprobs...)
				}
				if len(lp) != len(wantLP) {
					t.Fatalf("%d logprobs, want %d", len(lp), len(wantLP))
				}
				for i := range lp {
					if lp[i].ID != wantLP[i].ID || abs(float64(lp[i].Logprob-wantLP[i].Logprob)) > 1e-4 || len(lp[i].Top) != 3 {
						t.Errorf("logprob %d: %+v, want %+v", i, lp[i], wantLP[i])
					}
				}
			}
		})
	}
}

// TestSpeculationRefused checks the requests and draft models speculation
// refuses, and that a constrained request does not speculate.
func TestSpeculationRefused(t *testing.T) {
	llama := fixturePath(t, "gguf", "llama-tiny-F32.gguf")
	_, err := Load(context.Background(), fixturePath(t, "gguf", "qwen3-tiny-F16.gguf"), Options{Threads: 1, Ctx: 64, Spec: SpecOptions{Draft: llama}})
	if !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), "vocabulary") {
		t.Errorf("draft with another vocabulary: error %v, want ErrOptions naming the vocabulary", err)
	}
	plain := loadWith(t, Options{}, "gguf", "llama-tiny-F32.gguf")
	prompt := specPrompts(t)["hello"]
	for _, tt := range []struct {
		param string
		spec  Speculation
	}{
		{"num_assistant_tokens", Speculation{DraftTokens: intp(3)}}, // no draft model
		{"num_assistant_tokens", Speculation{DraftTokens: intp(-1)}},
		{"prompt_lookup_num_tokens", Speculation{LookupTokens: intp(MaxSpecTokens + 1)}},
		{"assistant_confidence_threshold", Speculation{Confidence: floatp(1.5)}},
	} {
		_, err := plain.Generate(context.Background(), Request{Prompt: prompt, Params: greedy(4), Spec: tt.spec}, func(Event) error { return nil })
		var pe *sample.ParamError
		if !errors.Is(err, ErrInvalidRequest) || !errors.As(err, &pe) || pe.Param != tt.param {
			t.Errorf("%s: error %v, want ErrInvalidRequest naming it", tt.param, err)
		}
	}
	g, err := grammar.Parse(`root ::= "a" "b"*`)
	if err != nil {
		t.Fatal(err)
	}
	_, _, _, res := collect(t, plain, Request{Prompt: prompt, Params: greedy(12), Spec: specOf(0, 8), Constraint: g})
	if res.Spec.Proposed != 0 {
		t.Errorf("a constrained request had %d tokens proposed, want none", res.Spec.Proposed)
	}
}

// TestBest checks the draft's choice and its probability.
func TestBest(t *testing.T) {
	logits := []float32{0, 2, 1, 5}
	var scratch []float32
	for _, tt := range []struct {
		n     int
		prob  bool
		id    int32
		wantP float64
	}{
		{4, false, 3, 1},
		{3, true, 1, 1 / (math.Exp(-2) + 1 + math.Exp(-1) + math.Exp(3))}, // id 3 lies beyond the shared vocabulary
		{4, true, 3, 1 / (math.Exp(-5) + math.Exp(-3) + math.Exp(-4) + 1)},
	} {
		s := &scratch
		if !tt.prob {
			s = nil
		}
		id, p := best(logits, tt.n, s)
		if id != tt.id || abs(p-tt.wantP) > 1e-5 {
			t.Errorf("best(%v, %d) = %d, %g; want %d, %g", logits, tt.n, id, p, tt.id, tt.wantP)
		}
	}
}

// TestAdapt checks the schedule of proposed tokens: more after a full
// acceptance, fewer after a rejection, pauses after single rejections.
func TestAdapt(t *testing.T) {
	type after struct{ proposed, accepted, k, pause int }
	tests := []struct {
		name  string
		steps []after
	}{
		{"grows to the limit", []after{{4, 4, 6, 0}, {6, 6, 8, 0}, {8, 8, 8, 0}}},
		{"shrinks to one", []after{{4, 1, 3, 0}, {3, 0, 2, 0}, {2, 0, 1, 0}}},
		{"pauses longer", []after{{1, 0, 1, 1}, {1, 0, 1, 2}, {1, 0, 1, 4}}},
		{"acceptance resets the pause", []after{{1, 0, 1, 1}, {1, 0, 1, 2}, {1, 1, 3, 0}, {3, 0, 2, 0}, {2, 0, 1, 0}, {1, 0, 1, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sr := &specRun{p: specParams{lookup: 8}, k: 4}
			for i, s := range tt.steps {
				sr.pause = 0
				sr.k = min(sr.k, s.proposed)
				sr.adapt(s.proposed, s.accepted)
				if sr.k != s.k || sr.pause != s.pause {
					t.Errorf("step %d (%d of %d accepted): k %d, pause %d; want %d, %d", i, s.accepted, s.proposed, sr.k, sr.pause, s.k, s.pause)
				}
			}
		})
	}
}
