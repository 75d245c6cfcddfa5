package server

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/server/openai"
)

// TestBeamValidation sends bad beam searches: each gets a 400 naming the
// parameter.
func TestBeamValidation(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{})
	chat, comp := "/v1/chat/completions", "/v1/completions"
	prompt := `"model":"m","prompt":"hi"`
	cases := []struct {
		name, path, body string
		param, code      string
	}{
		{"stream", comp, prompt + `,"use_beam_search":true,"stream":true`, "use_beam_search", "unsupported_parameter"},
		{"chat stream", chat, `"model":"m",` + userHi + `,"use_beam_search":true,"stream":true`, "use_beam_search", "unsupported_parameter"},
		{"early_stopping value", comp, prompt + `,"use_beam_search":true,"early_stopping":"soon"`, "early_stopping", "invalid_value"},
		{"early_stopping type", comp, prompt + `,"use_beam_search":true,"early_stopping":1`, "early_stopping", "invalid_value"},
		{"length_penalty", comp, prompt + `,"use_beam_search":true,"length_penalty":11`, "length_penalty", "invalid_value"},
		{"length_penalty type", comp, prompt + `,"use_beam_search":true,"length_penalty":"long"`, "length_penalty", "invalid_type"},
		{"groups divide", comp, prompt + `,"use_beam_search":true,"best_of":4,"num_beam_groups":3`, "num_beam_groups", "invalid_value"},
		{"groups range", comp, prompt + `,"use_beam_search":true,"num_beam_groups":0`, "num_beam_groups", "invalid_value"},
		{"diversity without groups", comp, prompt + `,"use_beam_search":true,"best_of":2,"diversity_penalty":1`, "diversity_penalty", "invalid_value"},
		{"diversity range", comp, prompt + `,"use_beam_search":true,"best_of":2,"num_beam_groups":2,"diversity_penalty":-1`, "diversity_penalty", "invalid_value"},
		{"too many beams", comp, prompt + `,"use_beam_search":true,"n":21`, "best_of", "invalid_value"},
		{"best_of below n", comp, prompt + `,"use_beam_search":true,"n":3,"best_of":2`, "best_of", "invalid_value"},
		{"chat best_of alone", chat, `"model":"m",` + userHi + `,"best_of":2`, "best_of", "unsupported_parameter"},
		{"chat best_of below n", chat, `"model":"m",` + userHi + `,"use_beam_search":true,"n":3,"best_of":2`, "best_of", "invalid_value"},
		{"grammar", comp, prompt + `,"use_beam_search":true,"grammar":"root ::= \"a\""`, "use_beam_search", "unsupported_parameter"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, b, _ := ts.do(t, "POST", c.path, "{"+c.body+"}")
			e := decodeErr(t, b).Error
			if status != 400 || e.Param == nil || *e.Param != c.param || e.Code == nil || *e.Code != c.code {
				t.Errorf("%d %s; want 400 %s %s", status, b, c.param, c.code)
			}
		})
	}
}

// TestBeamRequests checks what reaches the model: one beam search per
// prompt, best_of beams (else n) returning n, the shaping fields, and the
// shaping fields ignored without use_beam_search.
func TestBeamRequests(t *testing.T) {
	cases := []struct {
		name, path, body string
		reqs             int
		want             *runtime.BeamSearch
	}{
		{"completions", "/v1/completions", `"prompt":["a","b"],"n":2,"best_of":4,"use_beam_search":true,"length_penalty":0.5,"early_stopping":"never","num_beam_groups":2,"diversity_penalty":1.5`,
			2, &runtime.BeamSearch{Width: 4, N: 2, LengthPenalty: 0.5, EarlyStopping: runtime.StopNever, Groups: 2, DiversityPenalty: 1.5}},
		{"completions n", "/v1/completions", `"prompt":"a","n":3,"use_beam_search":true,"early_stopping":true`,
			1, &runtime.BeamSearch{Width: 3, N: 3, LengthPenalty: 1, EarlyStopping: runtime.StopEarly, Groups: 1}},
		{"chat", "/v1/chat/completions", userHi + `,"n":2,"best_of":3,"use_beam_search":true`,
			1, &runtime.BeamSearch{Width: 3, N: 2, LengthPenalty: 1, Groups: 1}},
		{"ignored", "/v1/completions", `"prompt":"a","n":2,"length_penalty":2,"early_stopping":true`, 2, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts, f := startFake(t, "ok", Options{})
			ts.post(t, c.path, `{"model":"m",`+c.body+`}`, 200, nil)
			if len(f.reqs) != c.reqs {
				t.Fatalf("%d requests reached the model, want %d", len(f.reqs), c.reqs)
			}
			for i, r := range f.reqs {
				if (r.Beam == nil) != (c.want == nil) || (r.Beam != nil && *r.Beam != *c.want) {
					t.Errorf("request %d: beam %+v, want %+v", i, r.Beam, c.want)
				}
			}
		})
	}
}

// TestBeamSearchModel serves beam searches of a fixture model: the
// choices are the engine's best beams, in order, with their finish
// reasons, logprobs and usage, the same on every call.
func TestBeamSearchModel(t *testing.T) {
	m := loadEngine(t, "gguf", "llama-tiny-F32.gguf")
	ts := startModels(t, modelLoader{"tiny": m})
	ids := m.Tokenize("The quick brown fox", true)
	want, err := m.e.Generate(context.Background(), runtime.Request{Prompt: ids, Params: maxTokens(8),
		Beam: &runtime.BeamSearch{Width: 4, N: 3, LengthPenalty: 1}}, func(runtime.Event) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	prompt, _ := json.Marshal(ids)
	body := fmt.Sprintf(`{"model":"tiny","prompt":%s,"max_tokens":8,"n":3,"best_of":4,"use_beam_search":true,"logprobs":0}`, prompt)
	var first compResp
	ts.post(t, "/v1/completions", body, 200, &first)
	if len(first.Choices) != 3 {
		t.Fatalf("%d choices, want 3", len(first.Choices))
	}
	total := 0
	for k, ch := range first.Choices {
		b := want.Beams[k]
		if ch.Index != k || ch.Text != b.Text || *ch.FinishReason != finishReason(b.Finish, false) {
			t.Errorf("choice %d: %q (%s), want beam %q (%s)", k, ch.Text, *ch.FinishReason, b.Text, b.Finish)
		}
		if ch.Logprobs == nil || len(ch.Logprobs.TokenLogprobs) != len(b.Tokens) {
			t.Errorf("choice %d: logprobs %+v for %d tokens", k, ch.Logprobs, len(b.Tokens))
		}
		total += len(b.Tokens)
		if b.StopToken >= 0 {
			total++
		}
	}
	if first.Usage.CompletionTokens != total || first.Usage.PromptTokens != len(ids) {
		t.Errorf("usage %+v, want %d completion tokens", first.Usage, total)
	}
	var again compResp
	ts.post(t, "/v1/completions", body, 200, &again)
	for k := range again.Choices {
		if again.Choices[k].Text != first.Choices[k].Text {
			t.Errorf("choice %d differs on a second call: %q, then %q", k, first.Choices[k].Text, again.Choices[k].Text)
		}
	}
	var c chatResp
	ts.post(t, "/v1/chat/completions", `{"model":"tiny",`+userHi+`,"max_tokens":6,"n":2,"use_beam_search":true,"length_penalty":0}`, 200, &c)
	if len(c.Choices) != 2 || c.Choices[0].Message == nil || c.Choices[1].Message == nil || c.Choices[0].Message.Content == nil ||
		c.Choices[1].Message.Content == nil || *c.Choices[0].Message.Content == *c.Choices[1].Message.Content {
		t.Errorf("chat beams: %+v, want 2 distinct choices", c.Choices)
	}
	status, b, _ := ts.do(t, "POST", "/v1/completions", `{"model":"tiny","prompt":"a","use_beam_search":true,"best_of":20}`)
	if e := decodeErr(t, b).Error; status != 400 || e.Code == nil || *e.Code != openai.CodeInvalidValue {
		t.Errorf("20 beams on an engine of 16 logit rows: %d %s, want 400", status, b)
	}
}

// maxTokens returns the default sampling parameters with a length limit.
func maxTokens(n int) sample.Params {
	p := sample.Defaults()
	p.MaxTokens = n
	return p
}

// scriptedModel is a fake model whose k-th generation emits one token of
// logprob lps[k] and ends with stops[k] (a stop token's logprob, 0 for
// the length limit).
type scriptedModel struct {
	*fakeModel
	lps, stops []float32
	calls      int
}

func (m *scriptedModel) Generate(_ context.Context, req runtime.Request, emit func(runtime.Event) error) (runtime.Result, error) {
	k := m.calls
	m.calls++
	res := runtime.Result{Finish: runtime.FinishLength, StopToken: -1, Usage: runtime.Usage{Prompt: len(req.Prompt), Completion: 1}}
	if m.stops[k] != 0 {
		res.Finish, res.StopToken, res.StopLogprob, res.Usage.Completion = runtime.FinishStop, 0, m.stops[k], 2
	}
	id := int32('a'+k) + fakeOffset
	return res, emit(runtime.Event{Tokens: []int32{id}, Text: string(rune('a' + k)), Logprobs: []runtime.Logprob{{ID: id, Logprob: m.lps[k]}}})
}

// TestBestOfCumulativeLogprob checks that best_of ranks the samples by
// their cumulative log-probability, the stop token's included.
func TestBestOfCumulativeLogprob(t *testing.T) {
	cases := []struct {
		name       string
		lps, stops []float32
		want       string
	}{
		{"by sum", []float32{-2, -1, -3}, []float32{0, 0, 0}, "b"},
		{"stop token counts", []float32{-2, -1, -3}, []float32{0, -5, 0}, "a"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := &scriptedModel{fakeModel: newFake(""), lps: c.lps, stops: c.stops}
			m.id = "m"
			ts := start(t, modelLoader{"m": m}, Options{}) // one sequence at a time: calls counts them in order
			var r compResp
			ts.post(t, "/v1/completions", `{"model":"m","prompt":"x","best_of":3}`, 200, &r)
			if len(r.Choices) != 1 || r.Choices[0].Text != c.want {
				t.Errorf("choices %+v, want the text %q", r.Choices, c.want)
			}
		})
	}
}
