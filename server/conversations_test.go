package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/server/openai"
	"github.com/mlxrun/mlx/store"
)

func TestConversationsAPI(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{})
	var cv openai.Conversation
	ts.post(t, "/v1/conversations", ``, 200, &cv)
	if !strings.HasPrefix(cv.ID, "conv_") || cv.Object != "conversation" || cv.CreatedAt == 0 || cv.Metadata == nil {
		t.Fatalf("created %+v", cv)
	}
	base := "/v1/conversations/" + cv.ID
	ts.post(t, base, `{"metadata":{"a":"1"}}`, 200, &cv)
	ts.getJSON(t, strings.TrimPrefix(base, "/v1"), 200, &cv)
	if cv.Metadata["a"] != "1" {
		t.Errorf("metadata %v", cv.Metadata)
	}
	var added openai.ItemList
	ts.post(t, base+"/items", `{"items":[{"role":"user","content":"q"},{"type":"function_call","id":"fc_1","call_id":"c","name":"f","arguments":"{}"},`+
		`{"type":"function_call_output","call_id":"c","output":"r"}]}`, 200, &added)
	if len(added.Data) != 3 || *added.LastID == "" || added.HasMore {
		t.Fatalf("added %+v", added)
	}
	var it testItem
	ts.getJSON(t, base+"/items/fc_1", 200, &it)
	if it.Type != "function_call" || it.CallID != "c" || it.Status != "completed" {
		t.Errorf("item %+v", it)
	}
	var msg testItem
	json.Unmarshal(added.Data[0], &msg)
	if !strings.HasPrefix(msg.ID, "msg_") || msg.Content[0].Type != "input_text" {
		t.Errorf("message item %+v", msg)
	}
	var page openai.ItemList
	ts.getJSON(t, base+"/items?limit=1", 200, &page)
	if len(page.Data) != 1 || !page.HasMore || *page.FirstID != *added.LastID {
		t.Errorf("newest first, one per page: %+v", page)
	}
	status, b, _ := ts.do(t, http.MethodDelete, base+"/items/fc_1", "")
	if json.Unmarshal(b, &cv); status != 200 || cv.Object != "conversation" {
		t.Errorf("delete item: %d %s", status, b)
	}
	cases := []struct {
		method, path, body string
		status             int
	}{
		{"GET", base + "/items/fc_1", "", 404},
		{"DELETE", base + "/items/fc_1", "", 404},
		{"POST", base + "/items", `{"items":[{"id":"fco_x","type":"function_call_output","call_id":"c","output":"r"},{"id":"fco_x","type":"function_call_output","call_id":"c","output":"r"}]}`, 400},
		{"POST", base + "/items", `{}`, 400},
		{"POST", base, `{}`, 400},
		{"POST", "/v1/conversations", `{"metadata":{"k":3}}`, 400},
		{"PUT", base, "", 405},
		{"GET", "/v1/conversations/conv_none", "", 404},
		{"GET", "/v1/conversations/conv_none/items", "", 404},
		{"POST", "/v1/conversations/conv_none/items", `{"items":[]}`, 404},
		{"DELETE", base, "", 200},
		{"GET", base, "", 404},
		{"DELETE", base, "", 404},
	}
	for _, c := range cases {
		status, b, _ := ts.do(t, c.method, c.path, c.body)
		if status != c.status {
			t.Errorf("%s %s %s: %d %s, want %d", c.method, c.path, c.body, status, b, c.status)
		}
		if status >= 400 {
			decodeErr(t, b)
		}
	}
}

func TestConversationTooLarge(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{ConversationStore: &store.Options{MaxEntries: 4, MaxBytes: 2048}})
	big := strings.Repeat("x", 4096)
	status, b, _ := ts.do(t, http.MethodPost, "/v1/conversations", `{"items":[{"role":"user","content":"`+big+`"}]}`)
	if e := decodeErr(t, b); status != 400 || !strings.Contains(e.Error.Message, "--conversation-store-max-bytes") {
		t.Errorf("too large: %d %s", status, b)
	}
}
