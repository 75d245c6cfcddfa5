package server

import "testing"

// TestReasoningEffortKwargs checks that reasoning_effort (chat) and
// reasoning.effort (responses) reach the template as reasoning_effort and
// enable_thinking, that chat_template_kwargs win, and that a bad value is
// refused.
func TestReasoningEffortKwargs(t *testing.T) {
	ts, f := startFake(t, "ok", Options{})
	cases := []struct {
		path, extra   string
		effort, think any
	}{
		{"/v1/chat/completions", ``, nil, nil},
		{"/v1/chat/completions", `,"reasoning_effort":"high"`, "high", true},
		{"/v1/chat/completions", `,"reasoning_effort":"low","chat_template_kwargs":{"reasoning_effort":"medium"}`, "medium", true},
		{"/v1/chat/completions", `,"reasoning_effort":"minimal"`, nil, false},
		{"/v1/chat/completions", `,"nvext":{"chat_template_kwargs":{"reasoning_effort":"low"}}`, "low", nil},
		{"/v1/responses", `,"reasoning":{"effort":"low"}`, "low", true},
		{"/v1/responses", `,"reasoning":{"effort":"none"}`, nil, false},
		{"/v1/responses", `,"reasoning":{"effort":"xhigh"}`, nil, true},
	}
	for _, c := range cases {
		body := `{"model":"m",` + userHi + c.extra + `}`
		if c.path == "/v1/responses" {
			body = `{"model":"m","input":"hi"` + c.extra + `}`
		}
		ts.post(t, c.path, body, 200, nil)
		if got, think := f.lastOpt.Kwargs["reasoning_effort"], f.lastOpt.Kwargs["enable_thinking"]; got != c.effort || think != c.think {
			t.Errorf("%s %s: reasoning_effort %v enable_thinking %v, want %v %v", c.path, c.extra, got, think, c.effort, c.think)
		}
	}
	status, b, _ := ts.do(t, "POST", "/v1/chat/completions", `{"model":"m",`+userHi+`,"reasoning_effort":"max"}`)
	if e := decodeErr(t, b); status != 400 || e.Error.Param == nil || *e.Error.Param != "reasoning_effort" {
		t.Errorf("bad effort: status %d, %s", status, b)
	}
}
