package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// statusView is the line between the transcript and the input: the model,
// the context in use, the speed, and a hint on the right.
func (m *model) statusView() string {
	parts := []string{}
	if m.ctxSize > 0 {
		used := m.ctxUsed
		if s := m.stream; s != nil && s.prompt > 0 {
			used = s.prompt + s.tokens
		}
		parts = append(parts, fmt.Sprintf("ctx %d/%d", used, m.ctxSize))
	}
	rate := m.rate
	if s := m.stream; s != nil {
		parts = append(parts, fmt.Sprintf("%d tokens", s.tokens))
		rate = s.rate
	}
	if rate > 0 {
		parts = append(parts, fmt.Sprintf("%.1f tok/s", rate))
	}
	left := m.st.statusModel.Render(" "+m.opt.Model) + m.st.status.Render(strings.Join(append([]string{""}, parts...), " · "))
	hint, hintStyle := m.hint()
	right := hintStyle.Render(hint + " ")
	gap := m.width - lipgloss.Width(left) - lipgloss.Width(right)
	if gap < 1 {
		right, gap = "", m.width-lipgloss.Width(left)
	}
	line := left + m.st.status.Render(strings.Repeat(" ", max(gap, 0))) + right
	return ansi.Truncate(line, m.width, "")
}

// hint is the right side of the status line.
func (m *model) hint() (string, lipgloss.Style) {
	switch {
	case m.quitArmed:
		return "press ctrl+c again to exit", m.st.statusWarn
	case m.flash != "":
		return m.flash, m.st.statusWarn
	case m.stream != nil && m.stream.stopped:
		return "stopping…", m.st.statusHint
	case m.stream != nil:
		return "ctrl+c stops", m.st.statusHint
	}
	return "ctrl+t reasoning · /help", m.st.statusHint
}
