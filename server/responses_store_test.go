package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/store"
)

// roles lists the messages the fake model got as role:content.
func (f *fakeModel) roles() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, len(f.lastMsgs))
	for i, m := range f.lastMsgs {
		out[i] = fmt.Sprintf("%s:%v", m.Role, m.Content)
	}
	return out
}

func TestResponsePreviousChain(t *testing.T) {
	ts, f := startFake(t, "ok", Options{})
	r1 := ts.createResponse(t, `{"model":"m","input":"first","instructions":"old rules"}`)
	r2 := ts.createResponse(t, `{"model":"m","input":"second","instructions":"new rules","previous_response_id":"`+r1.ID+`"}`)
	want := "system:new rules|user:first|assistant:ok|user:second"
	if got := strings.Join(f.roles(), "|"); got != want {
		t.Errorf("second prompt %s, want %s", got, want)
	}
	if r2.PreviousResponseID == nil || *r2.PreviousResponseID != r1.ID {
		t.Errorf("previous_response_id %v", r2.PreviousResponseID)
	}
	evs := ts.streamResponse(t, `{"model":"m","stream":true,"input":[{"role":"user","content":"third"}],"previous_response_id":"`+r2.ID+`"}`)
	if evs[len(evs)-1].Type != openai.EventCompleted {
		t.Fatalf("chained stream ended with %s", evs[len(evs)-1].Type)
	}
	want = "user:first|assistant:ok|user:second|assistant:ok|user:third"
	if got := strings.Join(f.roles(), "|"); got != want {
		t.Errorf("third prompt %s, want %s", got, want)
	}
	var items openai.ItemList
	ts.getJSON(t, "/v1/responses/"+r2.ID+"/input_items", 200, &items)
	if len(items.Data) != 1 || !strings.Contains(string(items.Data[0]), `"second"`) {
		t.Errorf("input items of the second response: %s", items.Data)
	}
	// Items sent again with their ids are not repeated.
	out, _ := json.Marshal(r1.Output[0])
	ts.createResponse(t, `{"model":"m","input":[`+string(out)+`,{"role":"user","content":"again"}],"previous_response_id":"`+r1.ID+`"}`)
	if got := strings.Join(f.roles(), "|"); got != "user:first|assistant:ok|user:again" {
		t.Errorf("prompt with a repeated item: %s", got)
	}
}

func TestResponseConversation(t *testing.T) {
	ts, f := startFake(t, "ok", Options{})
	var conv openai.Conversation
	ts.post(t, "/v1/conversations", `{"items":[{"role":"user","content":"hello"}],"metadata":{"topic":"t"}}`, 200, &conv)
	r := ts.createResponse(t, `{"model":"m","input":"next","conversation":{"id":"`+conv.ID+`"}}`)
	if r.Conversation == nil || r.Conversation.ID != conv.ID {
		t.Errorf("conversation %+v", r.Conversation)
	}
	if got := strings.Join(f.roles(), "|"); got != "user:hello|user:next" {
		t.Errorf("prompt %s", got)
	}
	ts.streamResponse(t, `{"model":"m","stream":true,"input":"more","conversation":"`+conv.ID+`"}`)
	ts.createResponse(t, `{"model":"m","input":"not kept","store":false,"conversation":"`+conv.ID+`"}`)
	if got := strings.Join(f.roles(), "|"); got != "user:hello|user:next|assistant:ok|user:more|assistant:ok|user:not kept" {
		t.Errorf("prompt %s", got)
	}
	var items openai.ItemList
	ts.getJSON(t, "/v1/conversations/"+conv.ID+"/items?order=asc", 200, &items)
	var texts []string
	for _, d := range items.Data {
		var it testItem
		if err := json.Unmarshal(d, &it); err != nil {
			t.Fatal(err)
		}
		texts = append(texts, it.Role+":"+it.Content[0].Text)
	}
	if got := strings.Join(texts, "|"); got != "user:hello|user:next|assistant:ok|user:more|assistant:ok" {
		t.Errorf("conversation items %s", got)
	}
	if *items.FirstID == *items.LastID || items.HasMore {
		t.Errorf("list %+v", items)
	}
}

func TestResponseStoreFalse(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{})
	r := ts.createResponse(t, `{"model":"m","input":"hi","store":false}`)
	if r.Store {
		t.Error("store: true echoed")
	}
	ts.getJSON(t, "/v1/responses/"+r.ID, 404, nil)
	status, b, _ := ts.do(t, http.MethodPost, "/v1/responses", `{"model":"m","input":"hi","previous_response_id":"`+r.ID+`"}`)
	if e := decodeErr(t, b); status != 400 || e.Error.Code == nil || *e.Error.Code != "previous_response_not_found" {
		t.Errorf("chained to an unstored response: %d %s", status, b)
	}
}

func TestResponseStoresDisabled(t *testing.T) {
	off := &store.Options{}
	ts, _ := startFake(t, "ok", Options{ResponseStore: off, ConversationStore: off})
	r := ts.createResponse(t, `{"model":"m","input":"hi"}`)
	if r.Store || r.Status != "completed" {
		t.Errorf("with the store disabled: %+v", r)
	}
	cases := []struct {
		method, path, body, flag string
		status                   int
	}{
		{"GET", "/v1/responses/" + r.ID, "", responseStoreFlag, 404},
		{"DELETE", "/v1/responses/" + r.ID, "", responseStoreFlag, 404},
		{"POST", "/v1/responses/" + r.ID + "/cancel", "", responseStoreFlag, 404},
		{"GET", "/v1/responses/" + r.ID + "/input_items", "", responseStoreFlag, 404},
		{"POST", "/v1/responses", `{"model":"m","input":"hi","previous_response_id":"` + r.ID + `"}`, responseStoreFlag, 400},
		{"POST", "/v1/responses", `{"model":"m","input":"hi","conversation":"conv_1"}`, conversationStoreFlag, 400},
		{"POST", "/v1/conversations", `{}`, conversationStoreFlag, 400},
		{"GET", "/v1/conversations/conv_1", "", conversationStoreFlag, 404},
		{"GET", "/v1/conversations/conv_1/items", "", conversationStoreFlag, 404},
	}
	for _, c := range cases {
		status, b, _ := ts.do(t, c.method, c.path, c.body)
		if e := decodeErr(t, b); status != c.status || !strings.Contains(e.Error.Message, c.flag) {
			t.Errorf("%s %s: %d %s, want %d naming %s", c.method, c.path, status, b, c.status, c.flag)
		}
	}
}

func TestResponseGetDelete(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{})
	r := ts.createResponse(t, `{"model":"m","input":"hi"}`)
	for _, prefix := range []string{"/v1", ""} {
		var got testResp
		ts.getJSON(t, prefix+"/responses/"+r.ID, 200, &got)
		if got.ID != r.ID || got.OutputText != r.OutputText {
			t.Errorf("GET %s: %+v", prefix, got)
		}
	}
	status, b, _ := ts.do(t, "DELETE", "/v1/responses/"+r.ID, "")
	var del openai.Deleted
	if json.Unmarshal(b, &del); status != 200 || !del.Deleted || del.ID != r.ID || del.Object != "response" {
		t.Errorf("DELETE: %d %s", status, b)
	}
	for _, m := range []string{"GET", "DELETE"} {
		if status, b, _ := ts.do(t, m, "/v1/responses/"+r.ID, ""); status != 404 {
			t.Errorf("%s after delete: %d %s", m, status, b)
		}
	}
	if status, _, h := ts.do(t, "PUT", "/v1/responses/"+r.ID, ""); status != 405 || h.Get("Allow") != "GET, DELETE" {
		t.Errorf("PUT: %d, Allow %q", status, h.Get("Allow"))
	}
	if status, _, _ := ts.do(t, "GET", "/v1/responses/"+r.ID+"?stream=true", ""); status != 400 {
		t.Errorf("GET with stream: %d", status)
	}
}

func TestResponseInputItemsPages(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{})
	r := ts.createResponse(t, `{"model":"m","input":[{"id":"msg_a","role":"user","content":"a"},{"role":"user","content":"b"},{"id":"msg_c","role":"user","content":"c"}]}`)
	base := "/v1/responses/" + r.ID + "/input_items"
	var page openai.ItemList
	ts.getJSON(t, base+"?limit=2&order=asc", 200, &page)
	if len(page.Data) != 2 || !page.HasMore || *page.FirstID != "msg_a" || !strings.HasPrefix(*page.LastID, "msg_") {
		t.Fatalf("first page %+v", page)
	}
	ts.getJSON(t, base+"?order=asc&after="+*page.LastID, 200, &page)
	if len(page.Data) != 1 || page.HasMore || *page.FirstID != "msg_c" {
		t.Errorf("second page %+v", page)
	}
	ts.getJSON(t, base, 200, &page) // newest first by default
	if len(page.Data) != 3 || *page.FirstID != "msg_c" {
		t.Errorf("default order %+v", page)
	}
	for q, param := range map[string]string{"?limit=0": "limit", "?limit=101": "limit", "?limit=x": "limit", "?order=up": "order", "?after=msg_none": "after"} {
		status, b, _ := ts.do(t, "GET", base+q, "")
		if e := decodeErr(t, b); status != 400 || e.Error.Param == nil || *e.Error.Param != param {
			t.Errorf("%s: %d %s", q, status, b)
		}
	}
	ts.getJSON(t, "/v1/responses/resp_none/input_items", 404, nil)
}

// startStream posts a streamed response and reads it up to its first
// text delta; the other events come on the channel, closed at the end of
// the stream.
func (ts *testServer) startStream(t *testing.T, body string) (string, <-chan respEvent) {
	t.Helper()
	resp, err := ts.client.Post(ts.url+"/v1/responses", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	ch := make(chan respEvent, 1024)
	go func() {
		defer close(ch)
		r := bufio.NewReader(resp.Body)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			var ev respEvent
			if data, ok := strings.CutPrefix(strings.TrimSpace(line), "data: "); ok && json.Unmarshal([]byte(data), &ev) == nil {
				ch <- ev
			}
		}
	}()
	var id string
	for ev := range ch {
		if ev.Type == openai.EventCreated {
			id = ev.Response.ID
		}
		if ev.Type == openai.EventTextDelta {
			break
		}
	}
	return id, ch
}

func TestResponseCancel(t *testing.T) {
	ts, f := startFake(t, strings.Repeat("x", 10000), Options{SSEKeepAlive: -1})
	f.delay = 2 * time.Millisecond
	id, evs := ts.startStream(t, `{"model":"m","input":"hi","stream":true}`)
	var cancelled testResp
	ts.post(t, "/v1/responses/"+id+"/cancel", ``, 200, &cancelled)
	if cancelled.Status != "cancelled" || cancelled.Error == nil || cancelled.Output[0].Status != "incomplete" {
		t.Errorf("cancel answered %+v", cancelled)
	}
	var last respEvent
	for ev := range evs {
		last = ev
	}
	if last.Type != openai.EventFailed || last.Response.Status != "cancelled" {
		t.Errorf("the stream ended with %s %+v", last.Type, last.Response)
	}
	if cause := <-f.cancels; cause != errResponseCancelled {
		t.Errorf("the engine stopped for %v", cause)
	}
	status, b, _ := ts.do(t, "POST", "/v1/responses/"+id+"/cancel", "")
	if status != 400 {
		t.Errorf("cancel of a cancelled response: %d %s", status, b)
	}
	if status, _, _ := ts.do(t, "POST", "/v1/responses/resp_none/cancel", ""); status != 404 {
		t.Errorf("cancel of an unknown response: %d", status)
	}
}

func TestResponseCancelNotStreamed(t *testing.T) {
	ts, f := startFake(t, strings.Repeat("x", 10000), Options{})
	f.delay = 2 * time.Millisecond
	done := ts.postAsync(`{"model":"m","input":"hi"}`)
	id := ts.runningResponse(t)
	ts.post(t, "/v1/responses/"+id+"/cancel", ``, 200, nil)
	res := <-done
	var r testResp
	if err := json.Unmarshal(res.body, &r); err != nil || res.status != 200 || r.Status != "cancelled" || r.ID != id {
		t.Errorf("the request got %d %s", res.status, res.body)
	}
}

func TestStoreMetrics(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{ResponseStore: &store.Options{MaxEntries: 1}})
	ts.createResponse(t, `{"model":"m","input":"a"}`)
	ts.createResponse(t, `{"model":"m","input":"b"}`)
	ts.post(t, "/v1/conversations", `{}`, 200, nil)
	_, b, _ := ts.do(t, "GET", "/metrics", "")
	for _, want := range []string{
		`mlx_store_entries{store="responses"} 1`,
		`mlx_store_evictions_total{store="responses"} 1`,
		`mlx_store_entries{store="conversations"} 1`,
		`mlx_store_expirations_total{store="conversations"} 0`,
		`mlx_store_bytes{store="responses"}`,
		`mlx_http_requests_total{route="/v1/responses",status="200"} 2`,
		`mlx_http_requests_total{route="/v1/conversations",status="200"} 1`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

// TestResponseShutdown stops the server mid-stream: the stream ends with
// the response cancelled, and the record says so.
func TestResponseShutdown(t *testing.T) {
	ts, f := startFake(t, strings.Repeat("x", 10000), Options{SSEKeepAlive: -1})
	f.delay = 2 * time.Millisecond
	id, evs := ts.startStream(t, `{"model":"m","input":"hi","stream":true}`)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	ts.Shutdown(ctx)
	var last respEvent
	for ev := range evs {
		last = ev
	}
	if last.Type != openai.EventFailed || last.Response.Status != "cancelled" || !strings.Contains(last.Response.Error.Message, "cut short") {
		t.Errorf("the stream ended with %s %+v", last.Type, last.Response)
	}
	if rec, err := ts.responses.Get(id); err != nil || rec.Status != "cancelled" {
		t.Errorf("record %v %v", rec.Status, err)
	}
}

// TestResponseDeleteWhileRunning deletes a response in progress: its final
// record must not bring it back.
func TestResponseDeleteWhileRunning(t *testing.T) {
	ts, f := startFake(t, strings.Repeat("x", 100), Options{})
	f.delay = 2 * time.Millisecond
	done := ts.postAsync(`{"model":"m","input":"hi"}`)
	id := ts.runningResponse(t)
	if status, b, _ := ts.do(t, "DELETE", "/v1/responses/"+id, ""); status != 200 {
		t.Fatalf("DELETE while running: %d %s", status, b)
	}
	if res := <-done; res.id != id || res.status != 200 {
		t.Fatalf("the request answered %d for %q, want 200 for %q", res.status, res.id, id)
	}
	ts.getJSON(t, "/v1/responses/"+id, 404, nil)
}

// TestResponseChainAfterCall chains from a response whose function call
// has a name no tool declares (a model may write any): the call and its
// output make the next prompt.
func TestResponseChainAfterCall(t *testing.T) {
	ts, f := startFake(t, "<tool_call>\n{\"name\": \"get weather\", \"arguments\": {}}\n</tool_call>", Options{})
	f.format = "hermes"
	r1 := ts.createResponse(t, `{"model":"m","input":"hi","tools":[{"type":"function","name":"w"}]}`)
	if len(r1.Output) != 1 || r1.Output[0].Name != "get weather" {
		t.Fatalf("output %+v", r1.Output)
	}
	ts.createResponse(t, `{"model":"m","previous_response_id":"`+r1.ID+`","input":[{"type":"function_call_output","call_id":"`+r1.Output[0].CallID+`","output":"sunny"}]}`)
	if got := strings.Join(f.roles(), "|"); got != "user:hi|assistant:|tool:sunny" {
		t.Errorf("prompt %s", got)
	}
	if tc := f.lastMsgs[1].ToolCalls; len(tc) != 1 || tc[0].Function.Name != "get weather" || f.lastMsgs[2].Name != "get weather" {
		t.Errorf("messages %+v", f.lastMsgs)
	}
}
