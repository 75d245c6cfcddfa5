package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
)

// maxInputHeight is the most lines the input grows to before it scrolls.
const maxInputHeight = 8

// input is the multi-line prompt with its history.
type input struct {
	ta      textarea.Model
	history []string
	pos     int    // index into history while browsing; len(history) otherwise
	draft   string // what was typed before browsing began
}

func newInput(st *styles) input {
	ta := textarea.New()
	ta.CharLimit = 0
	ta.MaxHeight = 0
	ta.ShowLineNumbers = false
	ta.Placeholder = "Send a message (/help for commands)"
	ta.SetPromptFunc(len(promptFirst), func(line int) string {
		if line == 0 {
			return promptFirst
		}
		return promptMore
	})
	ta.FocusedStyle, ta.BlurredStyle = st.input, st.input
	ta.Cursor.Style, ta.Cursor.TextStyle = st.cursor, st.input.Text
	ta.KeyMap.InsertNewline.SetEnabled(false) // Enter is the chat's
	ta.Focus()
	ta.Cursor.SetMode(cursor.CursorStatic) // no blink: nothing to redraw while idle
	ta.SetHeight(1)
	return input{ta: ta}
}

// SetWidth sets the width, prompt included.
func (in *input) SetWidth(w int) { in.ta.SetWidth(max(w, minWidth)) }

// Height returns the lines the input takes: its text, within limits.
func (in *input) Height() int { return in.ta.Height() }

// Value returns the text typed.
func (in *input) Value() string { return in.ta.Value() }

// Reset empties the input and ends history browsing.
func (in *input) Reset() {
	in.ta.Reset()
	in.pos, in.draft = len(in.history), ""
	in.fit()
}

// Newline inserts a line break at the cursor.
func (in *input) Newline() {
	in.ta.InsertString("\n")
	in.fit()
}

// Enter decides what Enter means for the text typed: a message to send
// (text, true), or a new line, inserted here, for a trailing backslash or
// an open """ block.
func (in *input) Enter() (string, bool) {
	v := in.ta.Value()
	if strings.HasSuffix(v, `\`) {
		in.ta.SetValue(strings.TrimSuffix(v, `\`) + "\n")
		in.fit()
		return "", false
	}
	trimmed := strings.TrimSpace(v)
	if body, ok := strings.CutPrefix(trimmed, `"""`); ok {
		body, closed := strings.CutSuffix(body, `"""`)
		if !closed {
			in.Newline()
			return "", false
		}
		trimmed = strings.Trim(body, "\r\n")
	}
	if strings.TrimSpace(trimmed) == "" {
		return "", false
	}
	in.remember(v)
	return trimmed, true
}

func (in *input) remember(v string) {
	if n := len(in.history); n == 0 || in.history[n-1] != v {
		in.history = append(in.history, v)
	}
	in.pos, in.draft = len(in.history), ""
}

// Prev shows the previous history entry when the cursor is on the first
// line; it reports whether it took the key.
func (in *input) Prev() bool {
	if in.ta.Line() > 0 || in.pos == 0 {
		return false
	}
	if in.pos == len(in.history) {
		in.draft = in.ta.Value()
	}
	in.pos--
	in.show(in.history[in.pos])
	return true
}

// Next shows the next history entry (or the draft) when the cursor is on
// the last line; it reports whether it took the key.
func (in *input) Next() bool {
	if in.ta.Line() < in.ta.LineCount()-1 || in.pos == len(in.history) {
		return false
	}
	in.pos++
	if in.pos == len(in.history) {
		in.show(in.draft)
	} else {
		in.show(in.history[in.pos])
	}
	return true
}

func (in *input) show(v string) {
	in.ta.SetValue(v)
	in.fit()
}

// Update passes a message on to the text area.
func (in *input) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	in.ta, cmd = in.ta.Update(msg)
	in.fit()
	return cmd
}

// fit grows or shrinks the text area to its lines.
func (in *input) fit() {
	in.ta.SetHeight(min(max(in.ta.LineCount(), 1), maxInputHeight))
}

// View renders the input.
func (in *input) View() string { return in.ta.View() }
