package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// transcript is the scrolling conversation: finished entries, whose lines
// are cached, and the tail of the answer being streamed, the only part
// rendered again while it grows.
type transcript struct {
	st            *styles
	entries       []*entry
	width         int
	showReasoning bool

	flat   []string // the lines of all entries, blank lines between
	stale  bool     // flat must be rebuilt
	tail   []string // the streaming answer's lines
	offset int      // lines scrolled up from the bottom
}

func newTranscript(st *styles) transcript {
	return transcript{st: st, showReasoning: true}
}

// SetWidth renders the transcript at w columns from now on.
func (t *transcript) SetWidth(w int) {
	if w != t.width {
		t.width, t.stale = w, true
	}
}

// Add appends a finished entry.
func (t *transcript) Add(e *entry) {
	t.entries = append(t.entries, e)
	t.stale = true
}

// Clear removes every entry.
func (t *transcript) Clear() {
	t.entries, t.tail, t.offset, t.stale = nil, nil, 0, true
}

// Entry returns the entry with that id, or nil.
func (t *transcript) Entry(id int) *entry {
	for i := len(t.entries) - 1; i >= 0; i-- {
		if t.entries[i].id == id {
			return t.entries[i]
		}
	}
	return nil
}

// Changed tells the transcript that an entry's content changed.
func (t *transcript) Changed(e *entry) {
	e.lines = nil
	t.stale = true
}

// ToggleReasoning shows or hides the reasoning of every answer.
func (t *transcript) ToggleReasoning() {
	t.showReasoning = !t.showReasoning
	t.stale = true
}

// SetTail replaces the lines of the streaming answer (nil when none).
func (t *transcript) SetTail(lines []string) {
	if t.offset > 0 {
		t.offset += len(lines) - len(t.tail)
	}
	t.tail = lines
}

// Scroll moves the view n lines up (down when n < 0) within height lines.
func (t *transcript) Scroll(n, height int) {
	t.offset = max(0, min(t.offset+n, t.total()-height))
}

// Refresh rebuilds the cached lines after changes; Update calls it so that
// View only reads.
func (t *transcript) Refresh() {
	if !t.stale {
		return
	}
	before := len(t.flat)
	t.flat = t.flat[:0]
	for i, e := range t.entries {
		if i > 0 {
			t.flat = append(t.flat, "")
		}
		t.flat = append(t.flat, e.render(t.st, t.width, t.showReasoning)...)
	}
	if t.offset > 0 {
		t.offset = max(0, t.offset+len(t.flat)-before)
	}
	t.stale = false
}

func (t *transcript) total() int {
	n := len(t.flat) + len(t.tail)
	if len(t.flat) > 0 && len(t.tail) > 0 {
		n++
	}
	return n
}

// line returns line i of flat, a blank line, and tail.
func (t *transcript) line(i int) string {
	if i < len(t.flat) {
		return t.flat[i]
	}
	if len(t.flat) > 0 {
		i-- // the blank line between
		if i < len(t.flat) {
			return ""
		}
	}
	return t.tail[i-len(t.flat)]
}

// View returns exactly height lines: the bottom of the transcript (or the
// part scrolled to), cut to the width, padded below when short. Its cost
// depends on height, not on the length of the conversation.
func (t *transcript) View(height int) string {
	if height <= 0 {
		return ""
	}
	total := t.total()
	end := total - min(t.offset, max(0, total-height))
	start := max(0, end-height)
	var b strings.Builder
	for i := start; i < end; i++ {
		b.WriteString(ansi.Truncate(t.line(i), t.width, ""))
		b.WriteByte('\n')
	}
	b.WriteString(strings.Repeat("\n", height-(end-start)))
	return strings.TrimSuffix(b.String(), "\n")
}
