package server

import (
	"context"
	"net/http"
	"strconv"
	"testing"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/server/openai"
)

// scorer is a fake model that scores prompts: token ids[k+1] gets
// logprob −(k+1)/2; the alternatives are the tokens of 'a', 'b', ... with
// logprobs −0.1, −0.2, ..., and the token itself is second among them for
// even k, absent for odd k.
type scorer struct{ *fakeModel }

func (s scorer) PromptLogprobs(_ context.Context, ids []int32, top int) ([]runtime.Logprob, error) {
	out := make([]runtime.Logprob, 0, len(ids)-1)
	for k := range len(ids) - 1 {
		lp := runtime.Logprob{ID: ids[k+1], Logprob: -float32(k+1) / 2}
		for j := range top {
			id := int32('a'+j) + fakeOffset
			if j == 1 && k%2 == 0 {
				id = lp.ID
			}
			lp.Top = append(lp.Top, sample.TokenLogprob{ID: id, Logprob: -0.1 * float32(j+1)})
		}
		out = append(out, lp)
	}
	return out, nil
}

// checkPromptLogprobs compares prompt_logprobs with what the scorer gives
// for the prompt ids.
func checkPromptLogprobs(t *testing.T, got openai.PromptLogprobs, ids []int32, top int) {
	t.Helper()
	if len(got) != len(ids) || got[0] != nil {
		t.Fatalf("%d entries (first %v), want %d, the first null", len(got), got[0], len(ids))
	}
	for i := 1; i < len(ids); i++ {
		e, own := got[i], got[i][ids[i]]
		k := i - 1
		if own.Logprob != -float64(k+1)/2 || own.DecodedToken == "" {
			t.Errorf("entry %d: the prompt token has %+v", i, own)
		}
		inTop := top >= 2 && k%2 == 0
		if (own.Rank != nil) != inTop || inTop && *own.Rank != 2 {
			t.Errorf("entry %d: rank %v, want 2 only when among the alternatives", i, own.Rank)
		}
		want := top
		if !inTop {
			want++ // the token besides the alternatives
		}
		if ids[i] == int32('a')+fakeOffset && top > 0 {
			want-- // the token is the first alternative
		}
		if len(e) != want {
			t.Errorf("entry %d has %d tokens, want %d: %v", i, len(e), want, e)
		}
	}
}

func TestPromptLogprobs(t *testing.T) {
	f := newFake("ok")
	f.id = "m"
	ts := start(t, modelLoader{"m": scorer{f}, "plain": f}, Options{})
	for _, top := range []int{0, 1, 3} {
		t.Run("completions top "+strconv.Itoa(top), func(t *testing.T) {
			var c openai.Completion
			ts.post(t, "/v1/completions", `{"model":"m","prompt":"xyz","n":2,"prompt_logprobs":`+strconv.Itoa(top)+`}`, http.StatusOK, &c)
			for _, ch := range c.Choices {
				checkPromptLogprobs(t, ch.PromptLogprobs, f.Tokenize("xyz", true), top)
			}
		})
	}
	t.Run("chat", func(t *testing.T) {
		var c openai.ChatCompletion
		ts.post(t, "/v1/chat/completions", `{"model":"m","prompt_logprobs":2,"messages":[{"role":"user","content":"hey"}]}`, http.StatusOK, &c)
		f.mu.Lock()
		ids := f.lastReq.Prompt
		f.mu.Unlock()
		checkPromptLogprobs(t, c.PromptLogprobs, ids, 2)
	})
	t.Run("echo keeps its own count", func(t *testing.T) {
		var c openai.Completion
		ts.post(t, "/v1/completions", `{"model":"m","prompt":"xyz","echo":true,"logprobs":1,"prompt_logprobs":3}`, http.StatusOK, &c)
		lp := c.Choices[0].Logprobs
		if lp == nil || len(lp.TopLogprobs) < 4 || len(lp.TopLogprobs[2]) != 1 {
			t.Fatalf("echo logprobs %+v, want one alternative per prompt token", lp)
		}
		checkPromptLogprobs(t, c.Choices[0].PromptLogprobs, f.Tokenize("xyz", true), 3)
	})
	for _, tt := range []struct{ name, path, body string }{
		{"stream", "/v1/completions", `{"model":"m","prompt":"x","stream":true,"prompt_logprobs":1}`},
		{"too many", "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}],"prompt_logprobs":21}`},
		{"responses", "/v1/responses", `{"model":"m","input":"x","prompt_logprobs":1}`},
		{"no scorer", "/v1/completions", `{"model":"plain","prompt":"x","prompt_logprobs":1}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, b, _ := ts.do(t, http.MethodPost, tt.path, tt.body)
			if e := decodeErr(t, b); status != http.StatusBadRequest || e.Error.Param == nil || *e.Error.Param != "prompt_logprobs" {
				t.Errorf("status %d %s, want a 400 naming prompt_logprobs", status, b)
			}
		})
	}
}
