package tui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/glamour"
	"github.com/muesli/termenv"
)

// markdownMsg carries answers rendered as markdown at width, by entry id.
type markdownMsg struct {
	width int
	out   map[int]string
}

// markdownCmd renders the answers of entries as markdown at the current
// width, in a Cmd: glamour is too slow for Update.
func (m *model) markdownCmd(entries []*entry) tea.Cmd {
	texts := answerTexts(entries, -1)
	if len(texts) == 0 {
		return nil
	}
	style, profile, width := m.st.markdown, m.st.profile, m.transcript.width
	return safeCmd("markdown", func() tea.Msg {
		return markdownMsg{width: width, out: renderMarkdown(style, profile, width, texts)}
	})
}

// answerTexts returns the texts of the answers among entries, by id,
// leaving out those already rendered at width.
func answerTexts(entries []*entry, width int) map[int]string {
	texts := make(map[int]string, len(entries))
	for _, e := range entries {
		if e.kind == entryAnswer && e.text != "" && e.mdWidth != width {
			texts[e.id] = e.text
		}
	}
	return texts
}

// renderAllMarkdown renders every answer again, after a resize.
func (m *model) renderAllMarkdown() tea.Cmd {
	return m.markdownCmd(m.transcript.entries)
}

// applyMarkdown stores rendered answers, unless the width changed since.
func (m *model) applyMarkdown(msg markdownMsg) {
	if msg.width != m.transcript.width {
		return
	}
	for id, out := range msg.out {
		if e := m.transcript.Entry(id); e != nil {
			e.md, e.mdWidth = out, msg.width
			m.transcript.Changed(e)
		}
	}
}

// renderMarkdown renders texts with glamour; a text glamour fails on stays
// out of the result and is shown as plain text. A single newline inside a
// paragraph stays a line break, as chat apps show it: models write poems,
// addresses and JSON one item a line without markdown's two trailing spaces.
func renderMarkdown(style string, profile termenv.Profile, width int, texts map[int]string) map[int]string {
	r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithColorProfile(profile),
		glamour.WithWordWrap(max(width-2*len(margin), minWidth)),
		glamour.WithPreservedNewLines())
	if err != nil {
		return nil
	}
	out := make(map[int]string, len(texts))
	for id, text := range texts {
		s, err := r.Render(cleanText(text))
		if err != nil {
			continue
		}
		lines := strings.Split(strings.Trim(s, "\n"), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
		}
		out[id] = strings.Join(lines, "\n")
	}
	return out
}
