package server

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mlxrun/mlx/server/openai"
)

// testItem is an output or input item as a client decodes it.
type testItem struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	Status    string          `json:"status"`
	Role      string          `json:"role"`
	Content   []testPart      `json:"content"`
	Summary   []testPart      `json:"summary"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Output    json.RawMessage `json:"output"`
}

// testPart is a content part as a client decodes it.
type testPart struct {
	Type        string           `json:"type"`
	Text        string           `json:"text"`
	Annotations []any            `json:"annotations"`
	Logprobs    []openai.Logprob `json:"logprobs"`
}

// testResp is a response object as a client decodes it.
type testResp struct {
	ID                 string                    `json:"id"`
	Object             string                    `json:"object"`
	Status             string                    `json:"status"`
	Model              string                    `json:"model"`
	CreatedAt          int64                     `json:"created_at"`
	CompletedAt        *int64                    `json:"completed_at"`
	Error              *openai.ResponseError     `json:"error"`
	IncompleteDetails  *openai.IncompleteDetails `json:"incomplete_details"`
	Output             []testItem                `json:"output"`
	OutputText         string                    `json:"output_text"`
	Usage              *openai.ResponseUsage     `json:"usage"`
	Store              bool                      `json:"store"`
	PreviousResponseID *string                   `json:"previous_response_id"`
	Conversation       *openai.ConversationRef   `json:"conversation"`
	Instructions       *string                   `json:"instructions"`
	MaxOutputTokens    *int                      `json:"max_output_tokens"`
	MaxToolCalls       *int                      `json:"max_tool_calls"`
	Metadata           map[string]string         `json:"metadata"`
	ParallelToolCalls  bool                      `json:"parallel_tool_calls"`
	Reasoning          openai.ReasoningConfig    `json:"reasoning"`
	Temperature        *float64                  `json:"temperature"`
	TopP               *float64                  `json:"top_p"`
	Text               openai.TextConfig         `json:"text"`
	ToolChoice         any                       `json:"tool_choice"`
	Tools              []openai.FunctionTool     `json:"tools"`
	TopLogprobs        int                       `json:"top_logprobs"`
	Truncation         string                    `json:"truncation"`
	User               *string                   `json:"user"`
	SafetyIdentifier   *string                   `json:"safety_identifier"`
	PromptCacheKey     *string                   `json:"prompt_cache_key"`
	ServiceTier        string                    `json:"service_tier"`
}

// respEvent is a stream event as a client decodes it.
type respEvent struct {
	Type         string           `json:"type"`
	Seq          int              `json:"sequence_number"`
	OutputIndex  int              `json:"output_index"`
	ContentIndex int              `json:"content_index"`
	ItemID       string           `json:"item_id"`
	Delta        string           `json:"delta"`
	Text         string           `json:"text"`
	Name         string           `json:"name"`
	Arguments    string           `json:"arguments"`
	Logprobs     []openai.Logprob `json:"logprobs"`
	Item         *testItem        `json:"item"`
	Part         *testPart        `json:"part"`
	Response     *testResp        `json:"response"`
	Message      string           `json:"message"`
}

// createResponse posts a response that is not streamed and decodes it.
func (ts *testServer) createResponse(t *testing.T, body string) testResp {
	t.Helper()
	var r testResp
	ts.post(t, "/v1/responses", body, http.StatusOK, &r)
	return r
}

// getJSON sends a GET, checks the status and decodes the body into out.
func (ts *testServer) getJSON(t *testing.T, path string, want int, out any) []byte {
	t.Helper()
	status, b, _ := ts.do(t, http.MethodGet, path, "")
	if status != want {
		t.Fatalf("GET %s: status %d, want %d: %s", path, status, want, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("GET %s: %v in %s", path, err, b)
		}
	}
	return b
}

// streamResponse posts a streamed response and decodes its events,
// checking that each frame's event name is its type, that the sequence
// numbers count from 0 and that no [DONE] frame ends it.
func (ts *testServer) streamResponse(t *testing.T, body string) []respEvent {
	t.Helper()
	status, b, hdr := ts.do(t, http.MethodPost, "/v1/responses", body)
	if status != http.StatusOK || !strings.HasPrefix(hdr.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("status %d, content type %q: %s", status, hdr.Get("Content-Type"), b)
	}
	return decodeEvents(t, parseSSE(t, b))
}

// decodeEvents decodes the event frames of a response stream.
func decodeEvents(t *testing.T, frames []frame) []respEvent {
	t.Helper()
	var evs []respEvent
	for _, f := range frames {
		if f.event == ":" {
			continue
		}
		var ev respEvent
		if err := json.Unmarshal([]byte(f.data), &ev); err != nil {
			t.Fatalf("event %q: %v: %s", f.event, err, f.data)
		}
		if ev.Type != f.event {
			t.Errorf("frame named %q holds an event of type %q", f.event, ev.Type)
		}
		if ev.Seq != len(evs) {
			t.Errorf("event %d (%s) has sequence_number %d", len(evs), ev.Type, ev.Seq)
		}
		evs = append(evs, ev)
	}
	return evs
}

// eventTypes lists the types of evs, runs of the same delta type counted
// once.
func eventTypes(evs []respEvent) []string {
	var out []string
	for _, ev := range evs {
		if n := len(out); n > 0 && out[n-1] == ev.Type && strings.HasSuffix(ev.Type, ".delta") {
			continue
		}
		out = append(out, ev.Type)
	}
	return out
}

// Event sequences of the output items.
var (
	seqStart     = []string{openai.EventCreated, openai.EventInProgress}
	seqMessage   = []string{openai.EventItemAdded, openai.EventPartAdded, openai.EventTextDelta, openai.EventTextDone, openai.EventPartDone, openai.EventItemDone}
	seqReasoning = []string{openai.EventItemAdded, openai.EventPartAdded, openai.EventReasoningDelta, openai.EventReasoningDone, openai.EventPartDone, openai.EventItemDone}
	seqCall      = []string{openai.EventItemAdded, openai.EventArgumentsDelta, openai.EventArgumentsDone, openai.EventItemDone}
)

func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// asyncResult is the answer to a request sent by postAsync.
type asyncResult struct {
	status int
	body   []byte
	id     string // X-Request-Id
}

// postAsync posts a response request in the background.
func (ts *testServer) postAsync(body string) <-chan asyncResult {
	done := make(chan asyncResult, 1)
	go func() {
		resp, err := ts.client.Post(ts.url+"/v1/responses", "application/json", strings.NewReader(body))
		if err != nil {
			done <- asyncResult{body: []byte(err.Error())}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		done <- asyncResult{resp.StatusCode, b, resp.Header.Get("X-Request-Id")}
	}()
	return done
}

// runningResponse waits for a response to be generated, with its record
// stored, and returns its id.
func (ts *testServer) runningResponse(t *testing.T) string {
	t.Helper()
	var id string
	if !waitFor(2*time.Second, func() bool {
		ts.live.mu.Lock()
		defer ts.live.mu.Unlock()
		for k := range ts.live.m {
			id = k
		}
		if id == "" {
			return false
		}
		_, err := ts.responses.Get(id)
		return err == nil
	}) {
		t.Fatal("no response started")
	}
	return id
}
