package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

func TestMultilineInput(t *testing.T) {
	tests := []struct {
		name  string
		steps func(h *harness)
		sent  string // the message the model received, "" for none
		input string // what stays in the input
	}{
		{"enter sends", func(h *harness) { h.submit("one line") }, "one line", ""},
		{"blank input sends nothing", func(h *harness) { h.submit("   ") }, "", "   "},
		{"trailing backslash", func(h *harness) { h.submit(`first \`); h.submit("second") }, "first \nsecond", ""},
		{"alt+enter", func(h *harness) {
			h.typeText("a")
			h.send(tea.KeyMsg{Type: tea.KeyEnter, Alt: true})
			h.submit("b")
		}, "a\nb", ""},
		{"ctrl+j", func(h *harness) { h.typeText("a"); h.key(tea.KeyCtrlJ); h.submit("b") }, "a\nb", ""},
		{`""" block`, func(h *harness) {
			h.submit(`"""`)
			h.submit("line one")
			h.submit("")
			h.submit(`line three"""`)
		}, "line one\n\nline three", ""},
		{"paste keeps its lines", func(h *harness) {
			h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("one\rtwo\nthree"), Paste: true})
			h.key(tea.KeyEnter)
		}, "one\ntwo\nthree", ""},
		{`open """ block`, func(h *harness) { h.submit(`"""`); h.submit("still open") }, "", "\"\"\"\nstill open\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := &fakeGen{deltas: []string{"ok"}}
			h := newHarness(t, g, 60, 16)
			tc.steps(h)
			h.settle()
			reqs := g.requests()
			sent := ""
			if len(reqs) > 0 {
				sent = reqs[0].Messages[len(reqs[0].Messages)-1].Content
			}
			if sent != tc.sent || h.m.input.Value() != tc.input {
				t.Errorf("sent %q with %q left in the input; want %q and %q", sent, h.m.input.Value(), tc.sent, tc.input)
			}
		})
	}
}

func TestInputHistory(t *testing.T) {
	h := newHarness(t, &fakeGen{deltas: []string{"ok"}}, 60, 16)
	h.ask("first")
	h.ask("second\nline")
	h.typeText("draft")
	steps := []struct {
		key  tea.KeyType
		want string
	}{
		{tea.KeyUp, "second\nline"},
		{tea.KeyUp, "second\nline"}, // the cursor is on the last line: it moves up
		{tea.KeyUp, "first"},
		{tea.KeyUp, "first"},          // the oldest stays
		{tea.KeyDown, "second\nline"}, // the cursor ends on its last line
		{tea.KeyDown, "draft"},
		{tea.KeyDown, "draft"},
	}
	for i, s := range steps {
		h.key(s.key)
		if got := h.m.input.Value(); got != s.want {
			t.Fatalf("step %d (%v): input %q, want %q", i, s.key, got, s.want)
		}
	}
}

func TestInputGrows(t *testing.T) {
	h := newHarness(t, &fakeGen{}, 60, 20)
	before := h.m.transcriptHeight()
	h.typeText(`"""`)
	for range 3 {
		h.key(tea.KeyEnter)
	}
	if got := h.m.input.Height(); got != 4 {
		t.Errorf("input height %d, want 4", got)
	}
	if got := h.m.transcriptHeight(); got != before-3 {
		t.Errorf("transcript height %d, want %d", got, before-3)
	}
	for range 20 {
		h.key(tea.KeyEnter)
	}
	if got := h.m.input.Height(); got != maxInputHeight {
		t.Errorf("input height %d, want at most %d", got, maxInputHeight)
	}
	if lines := strings.Count(h.m.View(), "\n") + 1; lines != 20 {
		t.Errorf("the view has %d lines, want 20", lines)
	}
}
