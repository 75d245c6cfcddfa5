package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/server/openai"
)

type compResp struct {
	openai.Completion
}

func TestCompletions(t *testing.T) {
	cases := []struct {
		name, body string
		texts      []string
		prompt     int // prompt tokens in usage
	}{
		{"string", `"prompt":"hi"`, []string{"abc"}, 3},
		{"token ids", `"prompt":[104,105]`, []string{"abc"}, 2},
		{"strings", `"prompt":["hi","yo!"]`, []string{"abc", "abc"}, 3 + 4},
		{"id lists", `"prompt":[[104],[105,106]]`, []string{"abc", "abc"}, 3},
		{"echo", `"prompt":"hi","echo":true`, []string{"hiabc"}, 3},
		{"echo ids", `"prompt":[107,108],"echo":true`, []string{"hiabc"}, 2},
		{"n per prompt", `"prompt":["a","b"],"n":2`, []string{"abc", "abc", "abc", "abc"}, 4},
		{"max_tokens", `"prompt":"a","max_tokens":2`, []string{"ab"}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts, _ := startFake(t, "abc", Options{})
			var r compResp
			ts.post(t, "/v1/completions", `{"model":"m",`+c.body+`}`, 200, &r)
			if r.Object != "text_completion" || !strings.HasPrefix(r.ID, "cmpl-") {
				t.Errorf("object %q id %q", r.Object, r.ID)
			}
			if len(r.Choices) != len(c.texts) {
				t.Fatalf("%d choices, want %d", len(r.Choices), len(c.texts))
			}
			for i, ch := range r.Choices {
				if ch.Index != i || ch.Text != c.texts[i] || ch.FinishReason == nil {
					t.Errorf("choice %d: %+v, want text %q", i, ch, c.texts[i])
				}
			}
			if r.Usage.PromptTokens != c.prompt {
				t.Errorf("prompt tokens %d, want %d", r.Usage.PromptTokens, c.prompt)
			}
		})
	}
}

// TestCompletionsDefaultMaxTokens checks OpenAI's default of 16 tokens.
func TestCompletionsDefaultMaxTokens(t *testing.T) {
	ts, f := startFake(t, strings.Repeat("x", 40), Options{})
	var r compResp
	ts.post(t, "/v1/completions", `{"model":"m","prompt":"a"}`, 200, &r)
	if len(r.Choices[0].Text) != openai.DefaultCompletionTokens || *r.Choices[0].FinishReason != "length" || f.lastReq.Params.MaxTokens != 16 {
		t.Errorf("text %q finish %s", r.Choices[0].Text, *r.Choices[0].FinishReason)
	}
}

func TestCompletionsLogprobs(t *testing.T) {
	ts, _ := startFake(t, "abc", Options{})
	var r compResp
	ts.post(t, "/v1/completions", `{"model":"m","prompt":"hi","logprobs":2,"echo":true}`, 200, &r)
	lp := r.Choices[0].Logprobs
	// BOS, h, i (prompt; no scorer: null logprobs), then a, b, c.
	if len(lp.Tokens) != 6 || len(lp.TokenLogprobs) != 6 || len(lp.TopLogprobs) != 6 || len(lp.TextOffset) != 6 {
		t.Fatalf("logprobs %+v", lp)
	}
	if lp.TokenLogprobs[0] != nil || lp.TokenLogprobs[3] == nil || *lp.TokenLogprobs[3] != -0.25 || len(lp.TopLogprobs[3]) != 2 {
		t.Errorf("logprobs %+v", lp)
	}
	if lp.Tokens[3] != "a" || lp.TextOffset[3] != 2 || lp.TextOffset[5] != 4 {
		t.Errorf("tokens %q offsets %v", lp.Tokens, lp.TextOffset)
	}
}

func TestCompletionsBestOf(t *testing.T) {
	ts, f := startFake(t, "abc", Options{})
	var r compResp
	ts.post(t, "/v1/completions", `{"model":"m","prompt":"x","best_of":3,"n":1}`, 200, &r)
	if len(r.Choices) != 1 || r.Choices[0].Logprobs != nil {
		t.Errorf("choices %+v, want one without logprobs", r.Choices)
	}
	if len(f.reqs) != 3 || !f.lastReq.Params.Logprobs {
		t.Errorf("%d sequences run (logprobs %v), want 3 with logprobs", len(f.reqs), f.lastReq.Params.Logprobs)
	}
}

func TestCompletionsStream(t *testing.T) {
	ts, f := startFake(t, "abc", Options{})
	_, b, _ := ts.do(t, "POST", "/v1/completions", `{"model":"m","prompt":"hi","stream":true,"echo":true,"stream_options":{"include_usage":true}}`)
	var text strings.Builder
	var last openai.Completion
	done := false
	for _, fr := range parseSSE(t, b) {
		if fr.data == "[DONE]" {
			done = true
			continue
		}
		if err := json.Unmarshal([]byte(fr.data), &last); err != nil {
			t.Fatal(err)
		}
		for _, c := range last.Choices {
			text.WriteString(c.Text)
		}
	}
	if !done || text.String() != "hi"+f.reply || last.Usage == nil || len(last.Choices) != 0 {
		t.Errorf("done %v text %q last %+v", done, text.String(), last)
	}
}
