package tui

import "strings"

// scrollback returns the conversation as the chat showed it, for the
// terminal's normal screen once the program has left the alternate screen:
// the chat's screen goes away with it, and the person expects to scroll
// back to what was said, as after any other command. Answers whose
// markdown is not yet rendered at the current width are rendered here, and
// an answer cut short by leaving shows what had arrived.
func (m *model) scrollback() string {
	width := m.transcript.width
	if texts := answerTexts(m.transcript.entries, width); len(texts) > 0 {
		m.applyMarkdown(markdownMsg{width: width, out: renderMarkdown(m.st.markdown, m.st.profile, width, texts)})
	}
	m.transcript.Refresh()
	lines := append([]string(nil), m.transcript.flat...)
	if m.stream != nil {
		m.renderTail()
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, m.transcript.tail...)
	}
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}
