package runtime

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/sample"
)

// greedy returns sampling parameters for temperature-0 decoding of n tokens.
func greedy(n int) sample.Params {
	p := sample.Defaults()
	p.Temperature, p.MaxTokens = 0, n
	return p
}

// collect runs a request and returns its events and result.
func collect(t *testing.T, e *Engine, req Request) ([]int32, string, []Event, Result) {
	t.Helper()
	var ids []int32
	var text strings.Builder
	var events []Event
	res, err := e.Generate(context.Background(), req, func(ev Event) error {
		ids = append(ids, ev.Tokens...)
		text.WriteString(ev.Text)
		events = append(events, ev)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids, text.String(), events, res
}

// TestGreedyReproducesReference checks that free-running greedy generation
// gives llama.cpp's tokens for the float32 fixtures, and text that is the
// decoding of those tokens. MLX 4-bit runs on its exact float kernels here
// (its default integer path is checked in TestReferenceLogprobsMLX).
func TestGreedyReproducesReference(t *testing.T) {
	tests := []struct {
		name  string
		model []string
		ref   string
	}{
		{"gguf", []string{"gguf", "llama-tiny-F32.gguf"}, "llama-tiny-F32.json"},
		{"safetensors", []string{"models", "llama-tiny"}, "llama-tiny-F32.json"},
		{"mlx", []string{"models", "llama-tiny-mlx-4bit"}, "llama-tiny-mlx-4bit-dequant-F32.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kernels.SetAffineInt8(false)
			e := loadEngine(t, kvcache.F32, tt.model...)
			kernels.SetAffineInt8(true)
			for _, c := range readReference(t, tt.ref, "f32kv-nofa") {
				ids, text, _, res := collect(t, e, Request{Prompt: c.PromptIDs, Params: greedy(len(c.GeneratedIDs))})
				if !slices.Equal(ids, c.GeneratedIDs) {
					t.Errorf("%s: generated %v, want %v", c.Name, ids, c.GeneratedIDs)
				}
				want := e.Tokenizer().Decode(ids, true)
				if text != want {
					t.Errorf("%s: streamed text %q, want %q", c.Name, text, want)
				}
				if res.Finish != FinishLength || res.Usage.Completion != len(c.GeneratedIDs) || res.Usage.Prompt != len(c.PromptIDs) {
					t.Errorf("%s: result %+v", c.Name, res)
				}
			}
		})
	}
}

// TestLogprobsMatchReference checks the logprobs that events carry against
// llama.cpp's for the first case of the float32 model.
func TestLogprobsMatchReference(t *testing.T) {
	e := loadEngine(t, kvcache.F32, "gguf", "llama-tiny-F32.gguf")
	c := readReference(t, "llama-tiny-F32.json", "f32kv-nofa")[1]
	p := greedy(len(c.GeneratedIDs))
	p.Logprobs, p.TopLogprobs = true, 5
	_, _, events, _ := collect(t, e, Request{Prompt: c.PromptIDs, Params: p})
	if len(events) != len(c.Steps) {
		t.Fatalf("%d events, want %d", len(events), len(c.Steps))
	}
	for i, ev := range events {
		st := c.Steps[i]
		if len(ev.Logprobs) != 1 || len(ev.Logprobs[0].Top) != 5 {
			t.Fatalf("step %d: logprobs %+v", i, ev.Logprobs)
		}
		lp := ev.Logprobs[0]
		if lp.ID != st.ID || abs(float64(lp.Logprob)-st.Top[0][1]) > 1e-3 {
			t.Errorf("step %d: token %d logprob %v, want %d %v", i, lp.ID, lp.Logprob, st.ID, st.Top[0][1])
		}
		for k, top := range lp.Top {
			if abs(float64(top.Logprob)-st.Top[k][1]) > 1e-3 {
				t.Errorf("step %d top %d: %v, want %v", i, k, top, st.Top[k])
			}
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestStopConditions checks stop strings, stop token ids and the prefix
// cache on one model.
func TestStopConditions(t *testing.T) {
	e := loadEngine(t, kvcache.F32, "gguf", "llama-tiny-F32.gguf")
	c := readReference(t, "llama-tiny-F32.json", "f32kv-nofa")[0]
	full, text, _, _ := collect(t, e, Request{Prompt: c.PromptIDs, Params: greedy(24)})
	stopAt := full[8]
	stopStr := e.Tokenizer().Decode(full[10:12], true)
	before, _, ok := strings.Cut(text, stopStr)
	if !ok || stopStr == "" {
		t.Fatalf("stop string %q not in %q", stopStr, text)
	}
	tests := []struct {
		name     string
		edit     func(p *sample.Params)
		wantText string
		check    func(t *testing.T, ids []int32, res Result)
	}{
		{"stop token", func(p *sample.Params) { p.StopTokenIDs = []int32{stopAt} }, "", func(t *testing.T, ids []int32, res Result) {
			n := slices.Index(full, stopAt)
			if !slices.Equal(ids, full[:n]) || res.StopToken != stopAt || res.Usage.Completion != n+1 {
				t.Errorf("ids %v, result %+v; want %v then stop on %d", ids, res, full[:n], stopAt)
			}
		}},
		{"stop string", func(p *sample.Params) { p.Stop = []string{stopStr} }, before, func(t *testing.T, ids []int32, res Result) {
			if res.StopString != stopStr {
				t.Errorf("stop string %q, want %q", res.StopString, stopStr)
			}
		}},
		{"stop string included", func(p *sample.Params) { p.Stop, p.IncludeStopStrInOutput = []string{stopStr}, true }, before + stopStr, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := greedy(24)
			tt.edit(&p)
			ids, got, _, res := collect(t, e, Request{Prompt: c.PromptIDs, Params: p})
			if res.Finish != FinishStop {
				t.Errorf("finish %q, want stop", res.Finish)
			}
			if tt.wantText != "" && got != tt.wantText {
				t.Errorf("text %q, want %q", got, tt.wantText)
			}
			if res.Usage.Cached != len(c.PromptIDs)-1 {
				t.Errorf("cached %d prompt tokens, want %d", res.Usage.Cached, len(c.PromptIDs)-1)
			}
			if tt.check != nil {
				tt.check(t, ids, res)
			}
		})
	}
}

// TestContextLimits checks the prompt-length error and the length finish at
// the end of the context.
func TestContextLimits(t *testing.T) {
	e, err := Load(context.Background(), fixturePath(t, "gguf", "llama-tiny-F32.gguf"), Options{Threads: 1, Ctx: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	prompt := make([]int32, 16)
	_, err = e.Generate(context.Background(), Request{Prompt: prompt, Params: greedy(0)}, func(Event) error { return nil })
	if !errors.Is(err, ErrContextLength) || !strings.Contains(err.Error(), "16 tokens") || !strings.Contains(err.Error(), "holds 16") {
		t.Errorf("16-token prompt in a context of 16: %v, want ErrContextLength naming both sizes", err)
	}
	p := greedy(0)
	p.IgnoreEOS = true
	ids, _, _, res := collect(t, e, Request{Prompt: prompt[:10], Params: p})
	if res.Finish != FinishLength || len(ids) != 6 {
		t.Errorf("finish %q after %d tokens, want length after 6", res.Finish, len(ids))
	}
}
