package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/server/anthropic"
)

// TestThinkingBudget asks a trained model that reasons before answering
// (cases.json's "think") with thinking budgets: a large one leaves the
// answer as it is; a small one closes the thinking block after that many
// tokens, and the answer follows.
func TestThinkingBudget(t *testing.T) {
	_, cases := fixture.TrainedCases(t)
	var think fixture.TrainedCase
	for _, c := range cases {
		if c.Name == "think" {
			think = c
		}
	}
	want, err := fixture.SplitAnswer(think.Expected)
	if err != nil || want.Reasoning == "" {
		t.Fatalf("cases.json has no think case with reasoning: %v", err)
	}
	var msgs []caseMessage
	if err := json.Unmarshal(think.Messages, &msgs); err != nil {
		t.Fatal(err)
	}
	m := loadEngine(t, "trained", "qwen3.5")
	ts := startModels(t, modelLoader{"m": m})
	type reply struct {
		Content    []struct{ Type, Text, Thinking string }
		StopReason string          `json:"stop_reason"`
		Usage      anthropic.Usage `json:"usage"`
	}
	ask := func(budget, maxTokens int) reply {
		t.Helper()
		body := fmt.Sprintf(`{"model":"m","max_tokens":%d,"temperature":0,"thinking":{"type":"enabled","budget_tokens":%d},"messages":[{"role":"user","content":%q}]}`,
			maxTokens, budget, msgs[0].Content)
		var r reply
		ts.post(t, "/v1/messages", body, 200, &r)
		return r
	}
	blocks := func(r reply) (thinking, text string) {
		for _, b := range r.Content {
			thinking += b.Thinking
			text += b.Text
		}
		return thinking, text
	}

	full := ask(90, 96)
	if th, text := blocks(full); th != want.Reasoning || text != want.Text {
		t.Fatalf("budget 90: thinking %q, text %q; want %q, %q", th, text, want.Reasoning, want.Text)
	}
	const budget = 3
	cut := ask(budget, 96)
	th, text := blocks(cut)
	if th == "" || len(th) >= len(want.Reasoning) || !strings.HasPrefix(want.Reasoning, th) {
		t.Errorf("budget %d: thinking %q, want a start of %q", budget, th, want.Reasoning)
	}
	if text == "" || cut.StopReason == anthropic.StopToolUse {
		t.Errorf("budget %d: no answer after the thinking (text %q, stop_reason %s)", budget, text, cut.StopReason)
	}
	if cut.Usage.OutputTokens <= budget || cut.Usage.InputTokens != full.Usage.InputTokens+full.Usage.CacheReadInputTokens-cut.Usage.CacheReadInputTokens {
		t.Errorf("budget %d: usage %+v, unlimited %+v", budget, cut.Usage, full.Usage)
	}

	// Streamed, the same blocks come in Anthropic's event order.
	body := fmt.Sprintf(`{"model":"m","max_tokens":96,"temperature":0,"stream":true,"thinking":{"type":"enabled","budget_tokens":%d},"messages":[{"role":"user","content":%q}]}`,
		budget, msgs[0].Content)
	b, err := askJSON(ts, "/v1/messages", json.RawMessage(body))
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	var sth, stext string
	for _, f := range parseSSE(t, b) {
		var ev struct {
			Type  string `json:"type"`
			Block struct {
				Type string `json:"type"`
			} `json:"content_block"`
			Delta struct{ Text, Thinking string } `json:"delta"`
		}
		if err := json.Unmarshal([]byte(f.data), &ev); err != nil {
			t.Fatalf("event %s: %v", f.data, err)
		}
		sth, stext = sth+ev.Delta.Thinking, stext+ev.Delta.Text
		if ev.Type == "content_block_start" {
			order = append(order, ev.Type+" "+ev.Block.Type)
		} else if ev.Type != "content_block_delta" {
			order = append(order, ev.Type)
		}
	}
	wantOrder := "message_start ping content_block_start thinking content_block_stop content_block_start text content_block_stop message_delta message_stop"
	if strings.Join(order, " ") != wantOrder || sth != th || stext != text {
		t.Errorf("streamed: events %v, thinking %q, text %q; whole: %q, %q", order, sth, stext, th, text)
	}
}
