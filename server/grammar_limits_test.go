package server

import (
	"net/http"
	"strings"
	"testing"
)

// TestNestedGrammarRefused checks that a grammar nested two million
// groups deep is a 400 naming the grammar, and that the server still
// answers afterwards.
func TestNestedGrammarRefused(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{})
	const n = 2_000_000
	grammar := "root ::= " + strings.Repeat("(", n) + `\"a\"` + strings.Repeat(")", n)
	body := `{"model":"m","messages":[{"role":"user","content":"hi"}],"grammar":"` + grammar + `"}`
	status, b, _ := ts.do(t, http.MethodPost, "/v1/chat/completions", body)
	if status != http.StatusBadRequest {
		t.Fatalf("status %d, want 400: %.300s", status, b)
	}
	e := decodeErr(t, b)
	if e.Error.Param == nil || *e.Error.Param != "grammar" || !strings.Contains(e.Error.Message, "nested") {
		t.Errorf("error %.300s, want param grammar and a message about nesting", b)
	}
	status, b, _ = ts.do(t, http.MethodPost, "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	if status != http.StatusOK {
		t.Fatalf("after the nested grammar: status %d: %.300s", status, b)
	}
}
