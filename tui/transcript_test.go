package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// filled returns a chat whose transcript holds n numbered notices.
func filled(t *testing.T, n int) *harness {
	t.Helper()
	h := newHarness(t, &fakeGen{block: true, deltas: []string{"streaming"}}, 40, 12)
	for i := range n {
		h.m.addNotice(fmt.Sprintf("notice %d", i))
	}
	h.m.layout()
	return h
}

func TestScroll(t *testing.T) {
	tests := []struct {
		name       string
		steps      func(h *harness)
		top, lastN string // the first and last notices on the screen
	}{
		{"bottom", func(h *harness) {}, "notice 15", "notice 19"},
		{"page up", func(h *harness) { h.key(tea.KeyPgUp) }, "notice 10", "notice 14"},
		{"page up past the top", func(h *harness) {
			for range 10 {
				h.key(tea.KeyPgUp)
			}
		}, "notice 0", "notice 4"},
		{"page up and down", func(h *harness) { h.key(tea.KeyPgUp); h.key(tea.KeyPgDown) }, "notice 15", "notice 19"},
		{"wheel", func(h *harness) { h.send(tea.MouseMsg{Button: tea.MouseButtonWheelUp}) }, "notice 13", "notice 17"},
		{"scrolled view stays while an answer streams", func(h *harness) {
			h.key(tea.KeyPgUp)
			h.m.transcript.offset = 2 // two lines up from the bottom
			h.m.addNotice("a new notice")
			h.m.layout()
		}, "notice 14", "notice 18"}, // as before the notice came
		{"sending returns to the bottom", func(h *harness) {
			h.key(tea.KeyPgUp)
			h.submit("question")
			h.until("streamed", func(m *model) bool { return strings.Contains(m.View(), "streaming") })
			h.key(tea.KeyCtrlC)
			h.until("stopped", func(m *model) bool { return m.stream == nil })
		}, "", "— stopped"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := filled(t, 20)
			tc.steps(h)
			view := h.m.transcript.View(h.m.transcriptHeight())
			if !strings.Contains(view, tc.top) || !strings.Contains(view, tc.lastN) {
				t.Errorf("view lacks %q or %q:\n%s", tc.top, tc.lastN, view)
			}
		})
	}
}

// BenchmarkStreamFrame measures one streamed chunk and one frame with a
// long conversation above: the cost must not grow with the conversation.
func BenchmarkStreamFrame(b *testing.B) {
	for _, entries := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("entries=%d", entries), func(b *testing.B) {
			m := newModel(&fakeGen{}, testOptions, newStyles(lipgloss.DefaultRenderer(), true), nil)
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
			for i := range entries {
				m.transcript.Add(&entry{id: m.newID(), kind: entryAnswer, text: strings.Repeat("word ", 60) + fmt.Sprint(i)})
			}
			m.layout()
			m.stream = newStream(m.newID(), func() {})
			m.state = stateStreaming
			b.ReportAllocs()
			for b.Loop() {
				m.Update(streamChunkMsg{id: m.stream.id, text: "token ", tokens: 1})
				m.Update(frameMsg{id: m.stream.id})
				_ = m.View()
				if m.stream.raw.Len() > 4000 {
					m.stream.raw.Reset()
				}
			}
		})
	}
}
