package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
)

// trainedMaxTokens bounds every answer: the longest expected answer is
// well under it.
const trainedMaxTokens = 96

// TestTrainedOtherAPIs checks that every tiny trained model answers every
// case of trained/cases.json exactly through Anthropic's Messages API
// (thinking blocks, tool_use blocks, stop_reason; whole and streamed) and
// Ollama's /api/chat (thinking, tool_calls, done_reason; whole and
// streamed), as it does through chat completions. One engine per family
// serves all its cases, a few at a time.
func TestTrainedOtherAPIs(t *testing.T) {
	dir, cases := fixture.TrainedCases(t)
	for _, family := range fixture.TrainedFamilies(t, dir) {
		t.Run(family, func(t *testing.T) {
			ts := startModels(t, modelLoader{"m": loadEngine(t, "trained", family)})
			apis := []struct {
				name string
				ask  func(*testServer, fixture.TrainedCase, bool) (fixture.Answer, string, error)
			}{{"messages", askMessages}, {"ollama", askOllama}}
			type result struct {
				got    fixture.Answer
				finish string
				err    error
			}
			n := len(apis) * 2 * len(cases)
			results := make([]result, n)
			sem := make(chan struct{}, 8)
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					sem <- struct{}{}
					defer func() { <-sem }()
					api, stream, c := apis[i/(2*len(cases))], i%2 == 1, cases[i/2%len(cases)]
					var r result
					r.got, r.finish, r.err = api.ask(ts, c, stream)
					results[i] = r
				}()
			}
			wg.Wait()
			for i, r := range results {
				api, stream, c := apis[i/(2*len(cases))], i%2 == 1, cases[i/2%len(cases)]
				want, err := fixture.SplitAnswer(c.Expected)
				if err != nil {
					t.Fatalf("cases.json: %s: %v", c.Name, err)
				}
				wantFinish := map[string][2]string{"messages": {"end_turn", "tool_use"}, "ollama": {"stop", "stop"}}[api.name][min(len(want.Calls), 1)]
				switch {
				case r.err != nil:
					t.Errorf("%s %s (stream %v): %v", api.name, c.Name, stream, r.err)
				case !r.got.Equal(want) || r.finish != wantFinish:
					t.Errorf("%s %s (stream %v):\n got %v, %q\nwant %v, %q", api.name, c.Name, stream, r.got, r.finish, want, wantFinish)
				}
			}
		})
	}
}

// caseMessage is a message of cases.json.
type caseMessage struct{ Role, Content string }

// caseTool is a tool of cases.json, in OpenAI's shape.
type caseTool struct {
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// askMessages sends a case to /v1/messages and returns the answer and the
// stop_reason.
func askMessages(ts *testServer, c fixture.TrainedCase, stream bool) (fixture.Answer, string, error) {
	body, err := messagesBody(c, stream)
	if err != nil {
		return fixture.Answer{}, "", err
	}
	b, err := askJSON(ts, "/v1/messages", body)
	if err != nil {
		return fixture.Answer{}, "", err
	}
	var blocks []messageBlock
	var stop string
	if stream {
		blocks, stop, err = streamedBlocks(b)
	} else {
		var resp struct {
			Content    []messageBlock `json:"content"`
			StopReason string         `json:"stop_reason"`
		}
		err = json.Unmarshal(b, &resp)
		blocks, stop = resp.Content, resp.StopReason
	}
	if err != nil {
		return fixture.Answer{}, "", err
	}
	a, err := blocksAnswer(blocks)
	return a, stop, err
}

// messagesBody is the /v1/messages request of a case: the system message
// as "system", the tools as Anthropic's.
func messagesBody(c fixture.TrainedCase, stream bool) (map[string]any, error) {
	var msgs []caseMessage
	var tools []caseTool
	if err := json.Unmarshal(c.Messages, &msgs); err != nil {
		return nil, err
	}
	if len(c.Tools) > 0 {
		if err := json.Unmarshal(c.Tools, &tools); err != nil {
			return nil, err
		}
	}
	body := map[string]any{"model": "m", "max_tokens": trainedMaxTokens, "temperature": 0, "stream": stream}
	var turns []map[string]string
	for _, m := range msgs {
		if m.Role == "system" {
			body["system"] = m.Content
			continue
		}
		turns = append(turns, map[string]string{"role": m.Role, "content": m.Content})
	}
	body["messages"] = turns
	var ats []map[string]any
	for _, tl := range tools {
		ats = append(ats, map[string]any{"name": tl.Function.Name, "description": tl.Function.Description, "input_schema": tl.Function.Parameters})
	}
	if ats != nil {
		body["tools"] = ats
	}
	return body, nil
}

// messageBlock is a content block of a Messages answer.
type messageBlock struct {
	Type, Text, Thinking, Name string
	Input                      json.RawMessage
}

// streamedBlocks puts the content blocks of a streamed Messages answer
// together from its events; it returns them and the stop_reason.
func streamedBlocks(b []byte) ([]messageBlock, string, error) {
	var blocks []messageBlock
	stop := ""
	for _, line := range bytes.Split(b, []byte("\n")) {
		data, ok := bytes.CutPrefix(line, []byte("data: "))
		if !ok {
			continue
		}
		var ev struct {
			Type         string `json:"type"`
			Index        int    `json:"index"`
			ContentBlock struct {
				Type, Name string
			} `json:"content_block"`
			Delta struct {
				Type, Text, Thinking string
				PartialJSON          string `json:"partial_json"`
				StopReason           string `json:"stop_reason"`
			} `json:"delta"`
		}
		if err := json.Unmarshal(data, &ev); err != nil {
			return nil, "", fmt.Errorf("event %s: %w", data, err)
		}
		switch ev.Type {
		case "content_block_start":
			blocks = append(blocks, messageBlock{Type: ev.ContentBlock.Type, Name: ev.ContentBlock.Name})
		case "content_block_delta":
			if ev.Index >= len(blocks) {
				return nil, "", fmt.Errorf("a delta of block %d before its start", ev.Index)
			}
			bl := &blocks[ev.Index]
			bl.Text += ev.Delta.Text
			bl.Thinking += ev.Delta.Thinking
			bl.Input = append(bl.Input, ev.Delta.PartialJSON...)
		case "message_delta":
			stop = ev.Delta.StopReason
		}
	}
	return blocks, stop, nil
}

// blocksAnswer is the answer that content blocks hold.
func blocksAnswer(blocks []messageBlock) (fixture.Answer, error) {
	var a fixture.Answer
	for _, bl := range blocks {
		switch bl.Type {
		case "thinking":
			a.Reasoning += bl.Thinking
		case "text":
			a.Text += bl.Text
		case "tool_use":
			args, err := fixture.CanonicalJSON(string(bl.Input))
			if err != nil {
				return a, err
			}
			a.Calls = append(a.Calls, fixture.Call{Name: bl.Name, Arguments: args})
		}
	}
	return a, nil
}

// askOllama sends a case to /api/chat and returns the answer and the
// done_reason.
func askOllama(ts *testServer, c fixture.TrainedCase, stream bool) (fixture.Answer, string, error) {
	body := map[string]any{"model": "m", "messages": c.Messages, "stream": stream,
		"options": map[string]any{"temperature": 0, "num_predict": trainedMaxTokens}}
	if len(c.Tools) > 0 {
		body["tools"] = c.Tools
	}
	b, err := askJSON(ts, "/api/chat", body)
	if err != nil {
		return fixture.Answer{}, "", err
	}
	var a fixture.Answer
	var done string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		var r struct {
			Message struct {
				Content, Thinking string
				ToolCalls         []struct {
					Function struct {
						Name      string          `json:"name"`
						Arguments json.RawMessage `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"message"`
			DoneReason string `json:"done_reason"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return a, "", fmt.Errorf("line %s: %w", sc.Bytes(), err)
		}
		a.Text += r.Message.Content
		a.Reasoning += r.Message.Thinking
		for _, tc := range r.Message.ToolCalls {
			args, err := fixture.CanonicalJSON(string(tc.Function.Arguments))
			if err != nil {
				return a, "", err
			}
			a.Calls = append(a.Calls, fixture.Call{Name: tc.Function.Name, Arguments: args})
		}
		done = r.DoneReason
	}
	return a, done, sc.Err()
}

// askJSON posts body as JSON and returns the answer's body, an error
// unless it is a 200.
func askJSON(ts *testServer, path string, body any) ([]byte, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	resp, err := ts.client.Post(ts.url+path, "application/json", bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, buf.Bytes())
	}
	return buf.Bytes(), nil
}
