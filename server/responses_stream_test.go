package server

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/server/openai"
)

// TestResponseStreamEvents checks the event sequence of each kind of
// output, and that the last event's response is the stored one.
func TestResponseStreamEvents(t *testing.T) {
	call := "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"
	cases := []struct {
		name, reply, extra, format string
		midErr                     error
		want                       []string
		status                     string
		check                      func(t *testing.T, r *testResp)
	}{
		{name: "plain text", reply: "abc", want: concat(seqStart, seqMessage, []string{openai.EventCompleted}), status: "completed",
			check: func(t *testing.T, r *testResp) {
				if r.OutputText != "abc" || r.Output[0].Content[0].Text != "abc" || r.Output[0].Status != "completed" || r.Usage.OutputTokens != 4 {
					t.Errorf("response %+v", r)
				}
			}},
		{name: "reasoning and text", reply: "<think>hm</think>ok", want: concat(seqStart, seqReasoning, seqMessage, []string{openai.EventCompleted}), status: "completed",
			check: func(t *testing.T, r *testResp) {
				rs := r.Output[0]
				if rs.Type != "reasoning" || rs.Content[0].Type != "reasoning_text" || rs.Content[0].Text != "hm" || r.OutputText != "ok" {
					t.Errorf("output %+v", r.Output)
				}
				if r.Usage.OutputTokensDetails.ReasoningTokens == 0 {
					t.Errorf("no reasoning tokens in %+v", r.Usage)
				}
			}},
		{name: "function call", reply: call, format: "hermes", extra: `,"tools":[{"type":"function","name":"get_weather","parameters":{"type":"object"}}]`,
			want: concat(seqStart, seqCall, []string{openai.EventCompleted}), status: "completed",
			check: func(t *testing.T, r *testResp) {
				fc := r.Output[0]
				if len(r.Output) != 1 || fc.Type != "function_call" || fc.Name != "get_weather" || !strings.HasPrefix(fc.CallID, "call_") ||
					!strings.HasPrefix(fc.ID, "fc_") || fc.Status != "completed" || !strings.Contains(fc.Arguments, `"Paris"`) {
					t.Errorf("output %+v", r.Output)
				}
			}},
		{name: "max_output_tokens", reply: "abcdef", extra: `,"max_output_tokens":2`, want: concat(seqStart, seqMessage, []string{openai.EventIncomplete}), status: "incomplete",
			check: func(t *testing.T, r *testResp) {
				if r.IncompleteDetails == nil || r.IncompleteDetails.Reason != "max_output_tokens" || r.Output[0].Status != "incomplete" || r.OutputText != "ab" {
					t.Errorf("response %+v", r)
				}
			}},
		{name: "error mid-stream", reply: "abcdef", midErr: errors.New("the kernel broke"), want: concat(seqStart, seqMessage, []string{openai.EventError, openai.EventFailed}), status: "failed",
			check: func(t *testing.T, r *testResp) {
				if r.Error == nil || !strings.Contains(r.Error.Message, "the kernel broke") || r.Error.Code != "server_error" || r.Output[0].Status != "incomplete" {
					t.Errorf("response %+v error %+v", r, r.Error)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts, f := startFake(t, c.reply, Options{})
			f.format, f.midErr, f.midAt = c.format, c.midErr, 2
			evs := ts.streamResponse(t, `{"model":"m","input":"hi","stream":true`+c.extra+`}`)
			if got := eventTypes(evs); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("events\n%v\nwant\n%v", got, c.want)
			}
			checkItemEvents(t, evs)
			if c.midErr != nil {
				if ev := evs[len(evs)-2]; !strings.Contains(ev.Message, c.midErr.Error()) {
					t.Errorf("error event %+v", ev)
				}
			}
			last := evs[len(evs)-1].Response
			if last.Status != c.status || evs[0].Response.Status != "in_progress" || len(evs[0].Response.Output) != 0 {
				t.Errorf("status %q (first %q), want %q", last.Status, evs[0].Response.Status, c.status)
			}
			c.check(t, last)
			var stored testResp
			ts.getJSON(t, "/v1/responses/"+last.ID, 200, &stored)
			if !reflect.DeepEqual(stored, *last) {
				t.Errorf("stored %+v\nstreamed %+v", stored, *last)
			}
		})
	}
}

// checkItemEvents checks that the events of each item name it, that the
// deltas add up to the done text, and that the item done holds it.
func checkItemEvents(t *testing.T, evs []respEvent) {
	t.Helper()
	ids := map[int]string{}
	deltas := map[int]string{}
	for _, ev := range evs {
		switch {
		case ev.Type == openai.EventItemAdded:
			if ev.Item.Status != "in_progress" {
				t.Errorf("item added with status %q", ev.Item.Status)
			}
			ids[ev.OutputIndex] = ev.Item.ID
		case ev.Item != nil:
			if ids[ev.OutputIndex] != ev.Item.ID {
				t.Errorf("%s of item %s at %d, added as %s", ev.Type, ev.Item.ID, ev.OutputIndex, ids[ev.OutputIndex])
			}
			if len(ev.Item.Content) > 0 && ev.Item.Content[0].Text != deltas[ev.OutputIndex] {
				t.Errorf("item done with %q, deltas gave %q", ev.Item.Content[0].Text, deltas[ev.OutputIndex])
			}
		case ev.ItemID != "":
			if ids[ev.OutputIndex] != ev.ItemID {
				t.Errorf("%s names item %s at %d, added as %s", ev.Type, ev.ItemID, ev.OutputIndex, ids[ev.OutputIndex])
			}
			if strings.HasSuffix(ev.Type, ".delta") {
				deltas[ev.OutputIndex] += ev.Delta
			}
			if (ev.Type == openai.EventTextDone || ev.Type == openai.EventReasoningDone) && ev.Text != deltas[ev.OutputIndex] {
				t.Errorf("%s text %q, deltas gave %q", ev.Type, ev.Text, deltas[ev.OutputIndex])
			}
		}
	}
}
