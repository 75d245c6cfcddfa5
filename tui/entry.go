package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// entryKind is what an entry of the transcript shows.
type entryKind int

const (
	entryUser   entryKind = iota // the person's message
	entryAnswer                  // the model's answer
	entryNotice                  // output of a slash command
	entryError                   // an error
)

// entry is one block of the transcript with its rendering cached.
type entry struct {
	id        int
	kind      entryKind
	text      string // the message, notice or error; for an answer, without reasoning
	reasoning string // an answer's thoughts
	note      string // an answer's ending: "stopped", "max_tokens reached"
	md        string // the answer rendered as markdown at mdWidth
	mdWidth   int

	lines      []string // the rendering at linesWidth
	linesWidth int
	linesShow  bool // whether lines show the reasoning
}

const (
	promptFirst = ">>> "
	promptMore  = "... "
	margin      = "  " // the left margin of answers, as glamour's documents have
	minWidth    = 10
)

// render returns the entry's lines at width, from the cache when it holds.
func (e *entry) render(st *styles, width int, showReasoning bool) []string {
	if e.lines != nil && e.linesWidth == width && e.linesShow == showReasoning {
		return e.lines
	}
	switch e.kind {
	case entryUser:
		e.lines = renderUser(st, e.text, width)
	case entryAnswer:
		md := ""
		if e.mdWidth == width {
			md = e.md
		}
		e.lines = renderAnswer(st, answerView{reasoning: e.reasoning, answer: e.text, md: md, note: e.note}, width, showReasoning)
	case entryNotice:
		e.lines = styleLines(st.notice, wrapHanging(e.text, width-len(margin), 0), margin)
	default:
		e.lines = styleLines(st.err, wrapHanging("✗ "+e.text, width-len(margin), 2), margin)
	}
	e.linesWidth, e.linesShow = width, showReasoning
	return e.lines
}

// renderUser shows the person's message behind the input's prompts.
func renderUser(st *styles, text string, width int) []string {
	lines := wrapLines(text, width-len(promptFirst))
	for i, l := range lines {
		p := promptMore
		if i == 0 {
			p = promptFirst
		}
		lines[i] = st.prompt.Render(p) + st.user.Render(l)
	}
	return lines
}

// answerView is what an answer shows, finished or streaming.
type answerView struct {
	reasoning, answer string
	md                string // rendered markdown, "" to show the answer as text
	note              string
	thinking          bool // the reasoning is still streaming
}

// renderAnswer shows the reasoning (dimmed, or one line when collapsed),
// then the answer, then its note.
func renderAnswer(st *styles, v answerView, width int, showReasoning bool) []string {
	var lines []string
	if v.reasoning != "" || v.thinking {
		head := "Reasoning"
		if v.thinking {
			head = "Thinking…"
		}
		if showReasoning {
			lines = append(lines, st.reasonHead.Render(margin+head+" (ctrl+t hides it)"))
			lines = append(lines, styleLines(st.reasoning, wrapLines(v.reasoning, width-2*len(margin)), margin+margin)...)
		} else {
			n := len(strings.Fields(v.reasoning))
			lines = append(lines, st.reasonHead.Render(fmt.Sprintf("%s▸ %s hidden, %d words (ctrl+t shows it)", margin, head, n)))
		}
		if v.answer != "" || v.md != "" {
			lines = append(lines, "")
		}
	}
	switch {
	case v.md != "":
		lines = append(lines, strings.Split(v.md, "\n")...)
	case v.answer != "":
		lines = append(lines, styleLines(st.answer, wrapLines(v.answer, width-len(margin)), margin)...)
	}
	if v.note != "" {
		lines = append(lines, st.note.Render(margin+"— "+v.note))
	}
	return lines
}

// wrapLines cleans text of control characters and wraps it at width,
// breaking long words.
func wrapLines(text string, width int) []string {
	width = max(width, minWidth)
	return strings.Split(ansi.Wrap(cleanText(text), width, ""), "\n")
}

// wrapHanging wraps each line of text at width, indenting its
// continuation lines under the line's second column (text after two
// spaces, as in the tables of /help and /show), else under its own indent,
// but at least minIndent.
func wrapHanging(text string, width, minIndent int) []string {
	width = max(width, minWidth)
	var out []string
	for _, line := range strings.Split(cleanText(text), "\n") {
		first, rest, _ := strings.Cut(ansi.Wrap(line, width, ""), "\n")
		out = append(out, first)
		if rest == "" || !strings.HasPrefix(line, first) {
			if rest != "" {
				out = append(out, strings.Split(rest, "\n")...)
			}
			continue
		}
		indent := max(hangIndent(line, width), minIndent)
		rest = strings.TrimLeft(line[len(first):], " ")
		pad := strings.Repeat(" ", indent)
		for _, l := range strings.Split(ansi.Wrap(rest, width-indent, ""), "\n") {
			out = append(out, pad+l)
		}
	}
	return out
}

// hangIndent is the column of a line's text after its first run of two
// spaces, when in the left half of width, else the line's own indent.
func hangIndent(line string, width int) int {
	lead := len(line) - len(strings.TrimLeft(line, " "))
	if i := strings.Index(line[lead:], "  "); i >= 0 {
		col := lead + i + 2
		col += len(line[col:]) - len(strings.TrimLeft(line[col:], " "))
		if col < width/2 && col < len(line) {
			return ansi.StringWidth(line[:col])
		}
	}
	return lead
}

// styleLines renders each line with s behind indent, in place.
func styleLines(s lipgloss.Style, lines []string, indent string) []string {
	for i, l := range lines {
		if l != "" {
			lines[i] = indent + s.Render(l)
		}
	}
	return lines
}

// cleanText turns tabs into spaces and drops the control characters a
// model may produce (escape sequences would corrupt the screen).
func cleanText(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteString("    ")
		case r == '\n' || !isControl(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isControl(r rune) bool {
	return r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r < 0xa0
}
