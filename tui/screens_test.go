package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
)

const markdownAnswer = "# Plan\n\nThree steps:\n\n1. **Measure** the loop.\n2. Find the `hot` path.\n3. Fix it.\n\n```go\nfor i := range n {\n\tsum += i\n}\n```\n"

// TestScreens compares whole screens at fixed widths with
// testdata/TestScreens/*.golden (refresh them with go test -update).
func TestScreens(t *testing.T) {
	scenes := []struct {
		name   string
		height int
		gen    *fakeGen
		steps  func(h *harness)
	}{
		{"empty", 12, &fakeGen{}, func(h *harness) {}},
		{"answer", 24, &fakeGen{deltas: words(markdownAnswer), stats: Stats{Finish: FinishStop, TokensPerSecond: 42.5, PromptTokens: 100, ContextUsed: 120, ContextSize: 4096}},
			func(h *harness) { h.submit("/system Be brief."); h.ask("How do I speed up this loop?") }},
		{"reasoning", 16, &fakeGen{deltas: words("<think>The user greets me. I should greet back, briefly.</think>\n\nHello! How can I help?")},
			func(h *harness) { h.ask("hello") }},
		{"reasoning_hidden", 16, &fakeGen{deltas: words("<think>The user greets me. I should greet back, briefly.</think>\n\nHello! How can I help?")},
			func(h *harness) { h.ask("hello"); h.key(tea.KeyCtrlT) }},
		{"streaming", 16, &fakeGen{deltas: words("<think>Counting: one two three.</think>A partial answer that keeps going"), block: true},
			func(h *harness) {
				h.submit("count")
				h.until("streamed", func(m *model) bool {
					return m.stream != nil && strings.HasSuffix(m.stream.raw.String(), "going") && !m.stream.dirty
				})
			}},
		{"stopped", 16, &fakeGen{deltas: words("Once upon a time"), block: true},
			func(h *harness) {
				h.submit("a story")
				h.until("streamed", func(m *model) bool { return strings.Contains(m.View(), "time") })
				h.key(tea.KeyCtrlC)
				h.settle()
				h.key(tea.KeyCtrlC)
			}},
		{"help", 24, &fakeGen{}, func(h *harness) { h.submit("/help") }},
		{"show", 24, &fakeGen{}, func(h *harness) { h.submit("/set seed 7"); h.submit("/show") }},
		{"errors", 16, &fakeGen{err: fmt.Errorf("the prompt has 5000 tokens and the context holds 4096: %w", ErrContextFull)},
			func(h *harness) { h.ask("a very long question"); h.submit("/set top_p 2"); h.submit("/nope") }},
		{"multiline_input", 12, &fakeGen{}, func(h *harness) { h.submit(`"""`); h.submit("first line"); h.typeText("second") }},
	}
	for _, width := range []int{60, 100} {
		for _, sc := range scenes {
			t.Run(fmt.Sprintf("%s_%d", sc.name, width), func(t *testing.T) {
				h := newHarness(t, sc.gen, width, sc.height)
				sc.steps(h)
				if sc.gen.block && h.m.stream != nil {
					defer func() { h.key(tea.KeyCtrlC); h.until("stopped", func(m *model) bool { return m.stream == nil }) }()
				} else {
					h.settle()
				}
				screen := h.m.View()
				checkScreen(t, screen, width, sc.height)
				golden.RequireEqual(t, []byte(screen))
			})
		}
	}
}

// checkScreen checks the frame: exactly height lines, none wider than width.
func checkScreen(t *testing.T, screen string, width, height int) {
	t.Helper()
	lines := strings.Split(screen, "\n")
	if len(lines) != height {
		t.Errorf("%d lines, want %d", len(lines), height)
	}
	for i, l := range lines {
		if w := len([]rune(l)); w > width {
			t.Errorf("line %d is %d columns wide, more than %d: %q", i, w, width, l)
		}
	}
}
