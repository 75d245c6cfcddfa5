package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/server/openai"
)

type chatResp struct {
	openai.ChatCompletion
	Annotations []annotation `json:"annotations"`
}

const userHi = `"messages":[{"role":"user","content":"hi"}]`

func TestChatNonStreaming(t *testing.T) {
	ts, f := startFake(t, "Hello there", Options{Fingerprint: "fp_test"})
	var r chatResp
	ts.post(t, "/v1/chat/completions", `{"model":"m",`+userHi+`}`, 200, &r)
	prompt := f.EncodePrompt("user: hi\nassistant:")
	checks := []struct {
		name      string
		got, want any
	}{
		{"object", r.Object, "chat.completion"},
		{"id prefix", strings.HasPrefix(r.ID, "chatcmpl-"), true},
		{"model", r.Model, "m"},
		{"fingerprint", r.SystemFingerprint, "fp_test"},
		{"choices", len(r.Choices), 1},
		{"role", r.Choices[0].Message.Role, "assistant"},
		{"content", *r.Choices[0].Message.Content, f.reply},
		{"finish", *r.Choices[0].FinishReason, "stop"},
		{"prompt tokens", r.Usage.PromptTokens, len(prompt)},
		{"completion tokens", r.Usage.CompletionTokens, len(f.reply) + 1},
		{"total", r.Usage.TotalTokens, len(prompt) + len(f.reply) + 1},
		{"cached", r.Usage.PromptTokensDetails.CachedTokens, 2},
		{"prompt sent", len(f.lastReq.Prompt), len(prompt)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
}

// chunks decodes the data frames of a chat stream up to [DONE].
func chatChunks(t *testing.T, frames []frame) (chunks []openai.ChatCompletion, done bool) {
	t.Helper()
	for _, f := range frames {
		if f.event != "" {
			continue
		}
		if f.data == "[DONE]" {
			done = true
			continue
		}
		if done {
			t.Fatalf("data after [DONE]: %s", f.data)
		}
		var c openai.ChatCompletion
		if err := json.Unmarshal([]byte(f.data), &c); err != nil {
			t.Fatalf("chunk %s: %v", f.data, err)
		}
		chunks = append(chunks, c)
	}
	return chunks, done
}

func TestChatStreamOrder(t *testing.T) {
	cases := []struct {
		name      string
		extra     string
		wantUsage bool
	}{
		{"no usage", ``, false},
		{"include_usage", `,"stream_options":{"include_usage":true}`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts, f := startFake(t, "abc", Options{})
			status, body, hdr := ts.do(t, "POST", "/v1/chat/completions", `{"model":"m","stream":true,`+userHi+c.extra+`}`)
			if status != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "text/event-stream") {
				t.Fatalf("status %d, content type %q", status, hdr.Get("Content-Type"))
			}
			chunks, done := chatChunks(t, parseSSE(t, body))
			if !done {
				t.Fatal("no [DONE]")
			}
			first := chunks[0].Choices[0].Delta
			if first.Role != "assistant" || first.Content == nil || *first.Content != "" {
				t.Errorf("first chunk %+v, want the role and empty content", first)
			}
			var text strings.Builder
			finishAt := -1
			for i, ch := range chunks {
				if ch.Object != "chat.completion.chunk" || ch.ID != chunks[0].ID {
					t.Errorf("chunk %d: object %q id %q", i, ch.Object, ch.ID)
				}
				for _, choice := range ch.Choices {
					if choice.Delta.Content != nil {
						text.WriteString(*choice.Delta.Content)
					}
					if choice.FinishReason != nil {
						finishAt = i
					}
				}
			}
			if text.String() != f.reply {
				t.Errorf("deltas %q, want %q", text.String(), f.reply)
			}
			last := chunks[len(chunks)-1]
			if c.wantUsage {
				if len(last.Choices) != 0 || last.Usage == nil || last.Usage.CompletionTokens != len(f.reply)+1 {
					t.Errorf("last chunk %+v, want the usage with no choices", last)
				}
				if finishAt != len(chunks)-2 {
					t.Errorf("finish_reason in chunk %d of %d, want just before the usage", finishAt, len(chunks))
				}
			} else {
				if last.Usage != nil || finishAt != len(chunks)-1 {
					t.Errorf("last chunk %+v (finish at %d), want finish_reason and no usage", last, finishAt)
				}
			}
		})
	}
}

func TestChatMaxTokensAndStop(t *testing.T) {
	cases := []struct {
		name, extra, content, finish string
	}{
		{"max_tokens", `"max_tokens":3`, "Hel", "length"},
		{"max_completion_tokens wins", `"max_tokens":1,"max_completion_tokens":2`, "He", "length"},
		{"stop string", `"stop":"o"`, "Hell", "stop"},
		{"stop list", `"stop":["x","l"]`, "He", "stop"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts, _ := startFake(t, "Hello", Options{})
			var r chatResp
			ts.post(t, "/v1/chat/completions", `{"model":"m",`+userHi+`,`+c.extra+`}`, 200, &r)
			if got := *r.Choices[0].Message.Content; got != c.content {
				t.Errorf("content %q, want %q", got, c.content)
			}
			if got := *r.Choices[0].FinishReason; got != c.finish {
				t.Errorf("finish %q, want %q", got, c.finish)
			}
		})
	}
}

func TestChatN(t *testing.T) {
	for _, par := range []int{1, 2} {
		ts, f := startFake(t, "abc", Options{})
		f.parallel = par
		var r chatResp
		ts.post(t, "/v1/chat/completions", `{"model":"m","n":3,"seed":5,"temperature":1,`+userHi+`}`, 200, &r)
		if len(r.Choices) != 3 {
			t.Fatalf("parallel %d: %d choices, want 3", par, len(r.Choices))
		}
		for i, c := range r.Choices {
			if c.Index != i {
				t.Errorf("choice %d has index %d", i, c.Index)
			}
		}
		if *r.Choices[0].Message.Content == *r.Choices[1].Message.Content {
			t.Errorf("parallel %d: choices equal (%q): seeds were not offset", par, *r.Choices[0].Message.Content)
		}
		if want := 3 * (len(f.reply) + 1); r.Usage.CompletionTokens != want {
			t.Errorf("completion tokens %d, want %d", r.Usage.CompletionTokens, want)
		}
		if got := len(f.EncodePrompt("user: hi\nassistant:")); r.Usage.PromptTokens != got {
			t.Errorf("prompt tokens %d, want %d (counted once)", r.Usage.PromptTokens, got)
		}
	}
}

func TestChatSeedReproducible(t *testing.T) {
	ts, _ := startFake(t, "hello world", Options{})
	body := `{"model":"m","seed":7,"temperature":0.8,` + userHi + `}`
	var a, b chatResp
	ts.post(t, "/v1/chat/completions", body, 200, &a)
	ts.post(t, "/v1/chat/completions", body, 200, &b)
	if *a.Choices[0].Message.Content != *b.Choices[0].Message.Content {
		t.Errorf("same seed, different answers: %q, %q", *a.Choices[0].Message.Content, *b.Choices[0].Message.Content)
	}
}

func TestChatLogprobs(t *testing.T) {
	ts, f := startFake(t, "abcd", Options{})
	for _, stream := range []bool{false, true} {
		body := `{"model":"m","logprobs":true,"top_logprobs":3,` + userHi
		var lps []openai.TokenLogprob
		if stream {
			_, b, _ := ts.do(t, "POST", "/v1/chat/completions", body+`,"stream":true}`)
			chunks, _ := chatChunks(t, parseSSE(t, b))
			for _, c := range chunks {
				for _, ch := range c.Choices {
					if ch.Logprobs != nil {
						lps = append(lps, ch.Logprobs.Content...)
					}
				}
			}
		} else {
			var r chatResp
			ts.post(t, "/v1/chat/completions", body+`}`, 200, &r)
			lps = r.Choices[0].Logprobs.Content
		}
		if len(lps) != len(f.reply) {
			t.Fatalf("stream %v: %d logprobs, want %d", stream, len(lps), len(f.reply))
		}
		for i, lp := range lps {
			if lp.Token != f.reply[i:i+1] || lp.Logprob != -0.25 || len(lp.TopLogprobs) != 3 || len(lp.Bytes) != 1 {
				t.Errorf("stream %v: logprob %d = %+v", stream, i, lp)
			}
		}
	}
	if !f.lastReq.Params.Logprobs || f.lastReq.Params.TopLogprobs != 3 {
		t.Errorf("engine params %+v", f.lastReq.Params)
	}
}

const tools = `"tools":[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}}]`

func TestChatToolCalls(t *testing.T) {
	reply := "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"
	ts, f := startFake(t, reply, Options{})
	f.format = "hermes"
	var r chatResp
	ts.post(t, "/v1/chat/completions", `{"model":"m",`+userHi+`,`+tools+`}`, 200, &r)
	msg := r.Choices[0].Message
	if msg.Content != nil || len(msg.ToolCalls) != 1 || *r.Choices[0].FinishReason != "tool_calls" {
		t.Fatalf("message %+v finish %s", msg, *r.Choices[0].FinishReason)
	}
	tc := msg.ToolCalls[0]
	if tc.Function.Name != "get_weather" || tc.Function.Arguments != `{"city":"Paris"}` || !strings.HasPrefix(tc.ID, "call_") || tc.Type != "function" || tc.Index != nil {
		t.Errorf("tool call %+v", tc)
	}
	if len(f.lastOpt.Tools) != 1 {
		t.Errorf("template got %d tools, want 1", len(f.lastOpt.Tools))
	}

	_, b, _ := ts.do(t, "POST", "/v1/chat/completions", `{"model":"m","stream":true,`+userHi+`,`+tools+`}`)
	chunks, _ := chatChunks(t, parseSSE(t, b))
	var calls []openai.ToolCall
	for _, c := range chunks {
		for _, ch := range c.Choices {
			calls = append(calls, ch.Delta.ToolCalls...)
		}
	}
	if len(calls) != 1 || calls[0].Index == nil || *calls[0].Index != 0 || calls[0].Function.Name != "get_weather" {
		t.Errorf("streamed tool calls %+v", calls)
	}

	ts.post(t, "/v1/chat/completions", `{"model":"m",`+userHi+`,`+tools+`,"tool_choice":"none"}`, 200, &r)
	if r.Choices[0].Message.Content == nil || *r.Choices[0].Message.Content != reply || f.lastOpt.Tools != nil {
		t.Errorf("tool_choice none: message %+v, template tools %v", r.Choices[0].Message, f.lastOpt.Tools)
	}
}

func TestChatReasoning(t *testing.T) {
	cases := []struct {
		name, reply, extra, reasoning, content string
	}{
		{"think block", "<think>\nhmm\n</think>\n\nanswer", "", "hmm", "answer"},
		{"separate_reasoning off", "<think>x</think>y", `,"separate_reasoning":false`, "", "<think>x</think>y"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts, _ := startFake(t, c.reply, Options{})
			var r chatResp
			ts.post(t, "/v1/chat/completions", `{"model":"m",`+userHi+c.extra+`}`, 200, &r)
			m := r.Choices[0].Message
			got := ""
			if m.ReasoningContent != nil {
				got = *m.ReasoningContent
			}
			if got != c.reasoning || *m.Content != c.content {
				t.Errorf("reasoning %q content %q, want %q %q", got, *m.Content, c.reasoning, c.content)
			}
			if c.reasoning != "" && r.Usage.CompletionTokensDetails.ReasoningTokens == 0 {
				t.Error("no reasoning tokens counted")
			}
		})
	}
}

func TestChatTemplateInputs(t *testing.T) {
	ts, f := startFake(t, "ok", Options{})
	body := `{"model":"m","messages":[{"role":"system","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":"42"},{"role":"assistant","content":"The answer"}],` +
		`"continue_final_message":true,"add_generation_prompt":false,"nvext":{"chat_template_kwargs":{"enable_thinking":false},"top_k":5},"top_k":7}`
	ts.post(t, "/v1/chat/completions", body, 200, nil)
	m := f.lastMsgs
	var args map[string]any
	_ = json.Unmarshal(m[1].ToolCalls[0].Function.Arguments, &args)
	checks := []struct {
		name      string
		got, want any
	}{
		{"joined parts", m[0].Content, "a\nb"},
		{"null content is empty", m[1].Content, ""},
		{"arguments parsed", args["x"], 1.0},
		{"tool message", m[2].ToolCallID, "c1"},
		{"continue", f.lastOpt.ContinueFinalMessage, true},
		{"no generation prompt", f.lastOpt.AddGenerationPrompt, false},
		{"kwargs from nvext", f.lastOpt.Kwargs["enable_thinking"], false},
		{"top level wins", f.lastReq.Params.TopK, 7},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestChatExtensionsReachEngine(t *testing.T) {
	ts, f := startFake(t, "ok", Options{})
	body := `{"model":"m",` + userHi + `,"temperature":0.5,"top_p":0.9,"min_p":0.1,"typical_p":0.8,"repetition_penalty":1.1,` +
		`"presence_penalty":0.5,"frequency_penalty":-0.5,"ignore_eos":true,"min_tokens":1,"stop_token_ids":[5],` +
		`"include_stop_str_in_output":true,"skip_special_tokens":false,"logit_bias":{"10":-100},"seed":3}`
	ts.post(t, "/v1/chat/completions", body, 200, nil)
	p := f.lastReq.Params
	checks := []struct {
		name      string
		got, want any
	}{
		{"temperature", p.Temperature, 0.5}, {"top_p", p.TopP, 0.9}, {"min_p", p.MinP, 0.1}, {"typical_p", p.TypicalP, 0.8},
		{"repetition_penalty", p.RepetitionPenalty, 1.1}, {"presence", p.PresencePenalty, 0.5}, {"frequency", p.FrequencyPenalty, -0.5},
		{"ignore_eos", p.IgnoreEOS, true}, {"min_tokens", p.MinTokens, 1}, {"stop ids", len(p.StopTokenIDs), 1},
		{"include stop", p.IncludeStopStrInOutput, true}, {"keep special", f.lastReq.KeepSpecial, true},
		{"logit bias", p.LogitBias[10], -100.0}, {"seed", *p.Seed, int64(3)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	ts.post(t, "/v1/chat/completions", `{"model":"m",`+userHi+`,"greedy_sampling":true}`, 200, nil)
	if f.lastReq.Params.Temperature != 0 {
		t.Errorf("greedy_sampling: temperature %g", f.lastReq.Params.Temperature)
	}
	ts.post(t, "/v1/chat/completions", `{"model":"m",`+userHi+`,"top_p":0}`, 200, nil)
	if f.lastReq.Params.Temperature != 0 || f.lastReq.Params.TopP != 1 {
		t.Errorf("top_p 0: %+v", f.lastReq.Params)
	}
	ts.post(t, "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"raw text"}],"use_raw_prompt":true}`, 200, nil)
	if got := f.Detokenize(f.lastReq.Prompt, true); got != "raw text" {
		t.Errorf("use_raw_prompt: prompt %q", got)
	}
}

func TestChatAnnotationsAndContinuousUsage(t *testing.T) {
	ts, f := startFake(t, "xyz", Options{})
	_, b, _ := ts.do(t, "POST", "/v1/chat/completions", `{"model":"m","stream":true,`+userHi+
		`,"annotations":["timing","token_ids"],"stream_options":{"continuous_usage_stats":true}}`)
	frames := parseSSE(t, b)
	var ids []int32
	timings := 0
	for _, fr := range frames {
		if fr.event != "annotation" {
			continue
		}
		var a annotation
		if err := json.Unmarshal([]byte(fr.data), &a); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, a.TokenIDs...)
		if a.Timing != nil {
			timings++
		}
	}
	if f.Detokenize(ids, false) != f.reply || timings != 1 {
		t.Errorf("annotations: ids %v, %d timings", ids, timings)
	}
	chunks, _ := chatChunks(t, frames)
	for i, c := range chunks {
		if c.Usage == nil {
			t.Errorf("chunk %d has no usage with continuous_usage_stats", i)
		}
	}
}

func TestStopReason(t *testing.T) {
	ts, _ := startFake(t, "Hello", Options{})
	var r chatResp
	ts.post(t, "/v1/chat/completions", `{"model":"m",`+userHi+`,"stop":"l"}`, 200, &r)
	if r.Choices[0].StopReason != "l" {
		t.Errorf("stop_reason %v, want the stop string", r.Choices[0].StopReason)
	}
	var c compResp
	ts.post(t, "/v1/completions", `{"model":"m","prompt":"x"}`, 200, &c)
	if c.Choices[0].StopReason != nil {
		t.Errorf("stop_reason %v after EOS, want none", c.Choices[0].StopReason)
	}
}

// piecer is a fake model whose tokens carry raw bytes.
type piecer struct{ *fakeModel }

func (p piecer) TokenPiece(id int32) string { return "\xe4" }

func TestLogprobBytesFromPieces(t *testing.T) {
	f := newFake("ab")
	f.id = "m"
	l := &pieceLoader{piecer{f}}
	ts := start(t, l, Options{})
	var r chatResp
	ts.post(t, "/v1/chat/completions", `{"model":"m","logprobs":true,`+userHi+`}`, 200, &r)
	for _, lp := range r.Choices[0].Logprobs.Content {
		if len(lp.Bytes) != 1 || lp.Bytes[0] != 0xe4 {
			t.Errorf("bytes %v, want the raw piece", lp.Bytes)
		}
	}
}

type pieceLoader struct{ m piecer }

func (l *pieceLoader) Load(context.Context, string) (Model, error) { return l.m, nil }
