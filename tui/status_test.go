package tui

import (
	"strings"
	"testing"
)

// statusLine is the line above the input.
func statusLine(h *harness) string {
	lines := strings.Split(h.m.View(), "\n")
	return lines[len(lines)-1-h.m.input.Height()]
}

// TestStatusDuringAnswer checks the status line while an answer streams
// and after it: the context counts the prompt and the tokens so far, and
// the hint given for Enter pressed during the answer goes with the answer.
func TestStatusDuringAnswer(t *testing.T) {
	gate := make(chan struct{})
	gen := &fakeGen{prompt: 100, deltas: []string{"one ", "two ", "three"}, gate: gate,
		stats: Stats{Finish: FinishStop, PromptTokens: 100, CompletionTokens: 3, ContextUsed: 103, ContextSize: 4096}}
	h := newHarness(t, gen, 100, 12)
	h.submit("count")
	h.until("three tokens", func(m *model) bool { return m.stream != nil && m.stream.tokens == 3 })
	if got := statusLine(h); !strings.Contains(got, "ctx 103/4096") {
		t.Errorf("status line while streaming %q: want the context in use, ctx 103/4096", got)
	}
	h.submit("more") // typed while the answer streams
	if got := statusLine(h); !strings.Contains(got, "an answer is coming") {
		t.Errorf("status line %q: want the hint to wait", got)
	}
	close(gate)
	h.until("idle", func(m *model) bool { return m.stream == nil })
	got := statusLine(h)
	if strings.Contains(got, "an answer is coming") || !strings.Contains(got, "ctrl+t reasoning") {
		t.Errorf("status line after the answer %q: the hint to wait is still there", got)
	}
	if !strings.Contains(got, "ctx 103/4096") {
		t.Errorf("status line after the answer %q: want ctx 103/4096", got)
	}
}
