package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/server/upstream"
)

// startPair serves a fake model "m" that replies reply (the upstream) and
// a server in front of it that serves it as "up/m".
func startPair(t *testing.T, reply string) (front, back *testServer, f *fakeModel) {
	t.Helper()
	back, f = startFake(t, reply, Options{})
	back.post(t, "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"load"}]}`, http.StatusOK, nil)
	f.mu.Lock()
	f.reqs = nil
	f.mu.Unlock()
	up, err := upstream.New(upstream.Config{Name: "up", URL: back.url + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := up.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	front = start(t, newFakeLoader(), Options{Upstreams: []*upstream.Client{up}})
	return front, back, f
}

type chatAnswer struct {
	Choices []struct {
		Message struct {
			Content   string `json:"content"`
			ToolCalls []struct {
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

func TestUpstreamChatRelaysTheUpstreamsAnswer(t *testing.T) {
	front, back, _ := startPair(t, "hello from upstream")
	body := `{"model":%q,"messages":[{"role":"user","content":"hi"}],"temperature":0}`
	var direct, relayed chatAnswer
	back.post(t, "/v1/chat/completions", strings.Replace(body, "%q", `"m"`, 1), http.StatusOK, &direct)
	front.post(t, "/v1/chat/completions", strings.Replace(body, "%q", `"up/m"`, 1), http.StatusOK, &relayed)
	if relayed.Choices[0].Message.Content != direct.Choices[0].Message.Content || direct.Choices[0].Message.Content != "hello from upstream" {
		t.Fatalf("relayed %q, direct %q", relayed.Choices[0].Message.Content, direct.Choices[0].Message.Content)
	}
	if relayed.Usage != direct.Usage || relayed.Choices[0].FinishReason != direct.Choices[0].FinishReason {
		t.Fatalf("relayed usage %+v finish %q, direct %+v %q", relayed.Usage, relayed.Choices[0].FinishReason, direct.Usage, direct.Choices[0].FinishReason)
	}

	status, b, _ := front.do(t, http.MethodPost, "/v1/chat/completions", `{"model":"up/m","stream":true,"messages":[{"role":"user","content":"hi"}]}`)
	if status != http.StatusOK {
		t.Fatalf("stream: %d %s", status, b)
	}
	var text strings.Builder
	for _, fr := range parseSSE(t, b) {
		if fr.event != "" || fr.data == "[DONE]" {
			continue
		}
		var c struct {
			Choices []struct {
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(fr.data), &c); err != nil {
			t.Fatal(err)
		}
		for _, ch := range c.Choices {
			text.WriteString(ch.Delta.Content)
		}
	}
	if text.String() != "hello from upstream" {
		t.Fatalf("streamed %q", text.String())
	}
}

func TestUpstreamModelsAreListed(t *testing.T) {
	front, _, _ := startPair(t, "x")
	_, b, _ := front.do(t, http.MethodGet, "/v1/models", "")
	if !strings.Contains(string(b), `"up/m"`) {
		t.Fatalf("/v1/models: %s", b)
	}
	_, b, _ = front.do(t, http.MethodGet, "/api/tags", "")
	if !strings.Contains(string(b), `"up/m"`) {
		t.Fatalf("/api/tags: %s", b)
	}
	_, b, _ = front.do(t, http.MethodGet, "/health", "")
	var h health
	if err := json.Unmarshal(b, &h); err != nil || len(h.Upstreams) != 1 || !h.Upstreams[0].OK || h.Upstreams[0].Models < 1 {
		t.Fatalf("/health: %s", b)
	}
	status, b, _ := front.do(t, http.MethodPost, "/v1/chat/completions", `{"model":"up/other","messages":[{"role":"user","content":"hi"}]}`)
	if status != http.StatusNotFound {
		t.Fatalf("a model the upstream does not list: %d %s", status, b)
	}
	// /api/show knows none of the upstream's defaults: it shows none.
	var show struct {
		Parameters   string   `json:"parameters"`
		Capabilities []string `json:"capabilities"`
		Details      struct {
			Format string `json:"format"`
		} `json:"details"`
	}
	front.post(t, "/api/show", `{"model":"up/m"}`, http.StatusOK, &show)
	if show.Parameters != "" || show.Details.Format != "remote" || !slices.Contains(show.Capabilities, "tools") {
		t.Fatalf("/api/show: %+v", show)
	}
}

func TestUpstreamToolCallsPassThrough(t *testing.T) {
	front, _, _ := startPair(t, `<tool_call>{"name":"get","arguments":{"city":"Oslo"}}</tool_call>`)
	var a chatAnswer
	front.post(t, "/v1/chat/completions", `{"model":"up/m","messages":[{"role":"user","content":"weather?"}],
		"tools":[{"type":"function","function":{"name":"get","parameters":{"type":"object"}}}]}`, http.StatusOK, &a)
	calls := a.Choices[0].Message.ToolCalls
	if len(calls) != 1 || calls[0].Function.Name != "get" || calls[0].Function.Arguments != `{"city":"Oslo"}` || a.Choices[0].FinishReason != "tool_calls" {
		t.Fatalf("answer %+v", a)
	}
}

func TestUpstreamOtherAPIs(t *testing.T) {
	front, _, f := startPair(t, "relayed words")
	var r1 struct {
		ID         string `json:"id"`
		OutputText string `json:"output_text"`
	}
	front.post(t, "/v1/responses", `{"model":"up/m","input":"first question"}`, http.StatusOK, &r1)
	var r2 struct {
		OutputText string `json:"output_text"`
	}
	front.post(t, "/v1/responses", `{"model":"up/m","input":"second","previous_response_id":"`+r1.ID+`"}`, http.StatusOK, &r2)
	if r1.OutputText != "relayed words" || r2.OutputText != "relayed words" {
		t.Fatalf("responses: %q %q", r1.OutputText, r2.OutputText)
	}
	f.mu.Lock()
	msgs := f.lastMsgs
	f.mu.Unlock()
	if len(msgs) != 3 || msgs[0].Content != "first question" || msgs[1].Content != "relayed words" || msgs[2].Content != "second" {
		t.Fatalf("the upstream got %+v, want the chain's three messages", msgs)
	}

	var am struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		StopReason string `json:"stop_reason"`
	}
	front.post(t, "/v1/messages", `{"model":"up/m","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}`, http.StatusOK, &am)
	if len(am.Content) != 1 || am.Content[0].Text != "relayed words" || am.StopReason != "end_turn" {
		t.Fatalf("messages: %+v", am)
	}

	var oc struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
		Done bool `json:"done"`
	}
	front.post(t, "/api/chat", `{"model":"up/m","stream":false,"messages":[{"role":"user","content":"hi"}]}`, http.StatusOK, &oc)
	if oc.Message.Content != "relayed words" || !oc.Done {
		t.Fatalf("ollama chat: %+v", oc)
	}
}

func TestUpstreamRefusesWhatItWouldFake(t *testing.T) {
	front, _, f := startPair(t, "x")
	for _, tc := range []struct{ extra, param string }{
		{`"n":2`, "n"},
		{`"prompt_logprobs":1`, "prompt_logprobs"},
		{`"logprobs":true`, "logprobs"},
		{`"grammar":"root ::= \"a\""`, "grammar"},
		{`"use_beam_search":true,"n":2`, "use_beam_search"},
	} {
		status, b, _ := front.do(t, http.MethodPost, "/v1/chat/completions", `{"model":"up/m","messages":[{"role":"user","content":"hi"}],`+tc.extra+`}`)
		e := decodeErr(t, b)
		if status != http.StatusBadRequest || e.Error.Param == nil || *e.Error.Param != tc.param || !strings.Contains(e.Error.Message, "upstream") {
			t.Errorf("%s: %d %s", tc.extra, status, b)
		}
	}
	if n := len(f.reqs); n != 0 {
		t.Fatalf("%d refused requests reached the upstream", n)
	}
}

func TestUpstreamErrorsKeepStatusAndMessage(t *testing.T) {
	front, back, f := startPair(t, "x")
	f.genErr = runtime.ErrBusy
	body := `{"model":"%s","messages":[{"role":"user","content":"hi"}]}`
	dstatus, db, _ := back.do(t, http.MethodPost, "/v1/chat/completions", strings.Replace(body, "%s", "m", 1))
	fstatus, fb, _ := front.do(t, http.MethodPost, "/v1/chat/completions", strings.Replace(body, "%s", "up/m", 1))
	if dstatus == http.StatusOK || fstatus != dstatus || decodeErr(t, fb).Error.Message != decodeErr(t, db).Error.Message {
		t.Fatalf("front %d %s, upstream %d %s", fstatus, fb, dstatus, db)
	}
	if got := metricValue(t, front, `mlx_upstream_errors_total{upstream="up"}`); got != 1 {
		t.Fatalf("upstream errors %v, want 1", got)
	}
}

func TestUpstreamClientDisconnectCancelsTheUpstream(t *testing.T) {
	front, _, f := startPair(t, strings.Repeat("slow ", 400))
	f.delay = 5 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, front.url+"/v1/chat/completions",
		strings.NewReader(`{"model":"up/m","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
	resp, err := front.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 256)
	if _, err := resp.Body.Read(buf); err != nil {
		t.Fatal(err)
	}
	if got := metricValue(t, front, `mlx_upstream_requests_in_flight{upstream="up"}`); got != 1 {
		t.Fatalf("in flight while streaming: %v", got)
	}
	cancel()
	resp.Body.Close()
	select {
	case <-f.cancels:
	case <-time.After(5 * time.Second):
		t.Fatal("the upstream's generation was not cancelled")
	}
	deadline := time.Now().Add(5 * time.Second)
	for metricValue(t, front, `mlx_upstream_requests_in_flight{upstream="up"}`) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the in-flight gauge did not return to 0")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// metricValue reads one series of ts's /metrics (0 when absent).
func metricValue(t *testing.T, ts *testServer, series string) float64 {
	t.Helper()
	_, b, _ := ts.do(t, http.MethodGet, "/metrics", "")
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			var f float64
			if _, err := fmt.Sscan(v, &f); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return f
		}
	}
	return 0
}

func TestUpstreamGetsThePlansSampling(t *testing.T) {
	front, _, f := startPair(t, "abcdefgh")
	front.post(t, "/v1/chat/completions", `{"model":"up/m","messages":[{"role":"system","content":"be brief"},{"role":"user","content":"hi"}],
		"temperature":0.5,"top_p":0.75,"top_k":7,"seed":3,"max_tokens":4,"stop":["zz"]}`, http.StatusOK, nil)
	f.mu.Lock()
	p, msgs := f.lastReq.Params, f.lastMsgs
	f.mu.Unlock()
	if p.Temperature != 0.5 || p.TopP != 0.75 || p.TopK != 7 || p.Seed == nil || *p.Seed != 3 || p.MaxTokens != 4 || len(p.Stop) != 1 || p.Stop[0] != "zz" {
		t.Fatalf("the upstream sampled with %+v", p)
	}
	if len(msgs) != 2 || msgs[0].Role != "system" || msgs[1].Content != "hi" {
		t.Fatalf("the upstream got %+v", msgs)
	}
	status, b, _ := front.do(t, http.MethodPost, "/v1/completions", `{"model":"up/m","prompt":"hi"}`)
	if status != http.StatusBadRequest || !strings.Contains(string(b), "/v1/chat/completions") {
		t.Fatalf("completions of a remote model: %d %s", status, b)
	}
}

func TestUpstreamModelsRefuseWhatNeedsTheirTokenizer(t *testing.T) {
	front, _, _ := startPair(t, "x")
	for _, tc := range []struct{ path, body string }{
		{"/v1/embeddings", `{"model":"up/m","input":"hi"}`},
		{"/tokenize", `{"model":"up/m","content":"hi"}`},
		{"/v1/messages/count_tokens", `{"model":"up/m","messages":[{"role":"user","content":"hi"}]}`},
		{"/api/embed", `{"model":"up/m","input":"hi"}`},
		{"/v1/rerank", `{"model":"up/m","query":"a","documents":["b"]}`},
		{"/infill", `{"model":"up/m","input_prefix":"a","input_suffix":"b"}`},
	} {
		status, b, _ := front.do(t, http.MethodPost, tc.path, tc.body)
		if status < 400 || status >= 500 {
			t.Errorf("%s: %d %s", tc.path, status, b)
		}
	}
}

func TestUpstreamRawPromptGoesToCompletions(t *testing.T) {
	front, _, f := startPair(t, "raw reply")
	var a chatAnswer
	front.post(t, "/v1/chat/completions", `{"model":"up/m","use_raw_prompt":true,"messages":[{"role":"user","content":"plain text"}]}`, http.StatusOK, &a)
	f.mu.Lock()
	prompt := f.lastReq.Prompt
	f.mu.Unlock()
	if a.Choices[0].Message.Content != "raw reply" || f.Detokenize(prompt, true) != "plain text" {
		t.Fatalf("answer %q from prompt %q", a.Choices[0].Message.Content, f.Detokenize(prompt, true))
	}
}

func TestUpstreamModelMissRefreshesTheList(t *testing.T) {
	back, _ := startFake(t, "late", Options{})
	up, err := upstream.New(upstream.Config{Name: "up", URL: back.url})
	if err != nil {
		t.Fatal(err)
	}
	if err := up.Refresh(context.Background()); err != nil || up.Serves("m") {
		t.Fatalf("m is listed before it loads (%v)", err)
	}
	front := start(t, newFakeLoader(), Options{Upstreams: []*upstream.Client{up}})
	back.post(t, "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"load"}]}`, http.StatusOK, nil)
	// The list is younger than the least time between refreshes.
	status, _, _ := front.do(t, http.MethodPost, "/v1/chat/completions", `{"model":"up/m","messages":[{"role":"user","content":"hi"}]}`)
	if status != http.StatusNotFound {
		t.Fatalf("a fresh list: %d", status)
	}
	time.Sleep(5100 * time.Millisecond)
	var a chatAnswer
	front.post(t, "/v1/chat/completions", `{"model":"up/m","messages":[{"role":"user","content":"hi"}]}`, http.StatusOK, &a)
	if a.Choices[0].Message.Content != "late" {
		t.Fatalf("answer %+v", a)
	}
}
