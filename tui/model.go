package tui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// state is what the chat is doing.
type state int

const (
	stateIdle      state = iota // waiting for the person
	stateStreaming              // an answer is arriving
	stateQuitting               // leaving; the next View is empty
)

// tickFunc schedules a message after a delay (tea.Tick; tests pass a
// faster one).
type tickFunc func(time.Duration, func(time.Time) tea.Msg) tea.Cmd

// model is the root bubbletea model of the chat.
type model struct {
	state    state
	gen      Generator
	opt      Options
	st       *styles
	settings Settings
	system   string
	messages []Message // the conversation, the system prompt aside

	transcript transcript
	input      input
	stream     *stream // the answer being generated, nil when idle

	width, height int
	ctxUsed       int     // tokens of the context in use, from the last answer
	ctxSize       int     // tokens the context holds
	rate          float64 // tokens/s of the last answer
	quitArmed     bool    // one Ctrl+C while idle; the next exits
	flash         string  // a hint in the status line until the next key or the answer's end
	nextID        int
	resizeSeq     int // the latest resize, for debouncing markdown

	// newCtx starts the context of one answer; Run derives it from its own.
	newCtx func() (context.Context, context.CancelFunc)
	now    func() time.Time
	tick   tickFunc
}

// newModel returns the chat at 80×24 until the first WindowSizeMsg.
func newModel(gen Generator, opt Options, st *styles, newCtx func() (context.Context, context.CancelFunc)) *model {
	m := &model{gen: gen, opt: opt, st: st, settings: opt.Settings, system: opt.System,
		transcript: newTranscript(st), input: newInput(st), width: 80, height: 24,
		ctxSize: opt.ContextSize, newCtx: newCtx, now: time.Now, tick: tea.Tick}
	m.layout()
	return m
}

// Init starts nothing: the input's cursor does not blink.
func (m *model) Init() tea.Cmd { return nil }

// Update applies one message. Its work is proportional to the message:
// rendering markdown and reading files happen in Cmds, and the streaming
// answer is rendered again only on frame ticks.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		cmd = m.resize(msg.Width, msg.Height)
	case tea.KeyMsg:
		cmd = m.key(msg)
	case tea.MouseMsg:
		m.mouse(msg)
	case streamChunkMsg:
		cmd = m.chunk(msg)
	case frameMsg:
		cmd = m.frame(msg)
	case streamDoneMsg:
		cmd = m.finish(msg)
	case resizeDoneMsg:
		if msg.seq == m.resizeSeq {
			cmd = m.renderAllMarkdown()
		}
	case markdownMsg:
		m.applyMarkdown(msg)
	case savedMsg:
		m.saved(msg)
	case loadedMsg:
		cmd = m.loaded(msg)
	case errMsg:
		m.addError(msg.err)
	}
	m.layout()
	return m, cmd
}

// View draws the transcript, the status line and the input.
func (m *model) View() string {
	if m.state == stateQuitting {
		return ""
	}
	return m.transcript.View(m.transcriptHeight()) + "\n" + m.statusView() + "\n" + m.input.View()
}

func (m *model) transcriptHeight() int {
	return max(0, m.height-1-m.input.Height())
}

// layout sizes the components and refreshes the transcript's cache.
func (m *model) layout() {
	m.input.SetWidth(m.width)
	m.transcript.SetWidth(m.width)
	m.transcript.Refresh()
}

// resizeDoneMsg ends a burst of resizes.
type resizeDoneMsg struct{ seq int }

// resizeDelay is how long resizing must pause before markdown is rendered
// again at the new width.
const resizeDelay = 150 * time.Millisecond

func (m *model) resize(w, h int) tea.Cmd {
	changed := w != m.width
	m.width, m.height = max(w, 1), max(h, 1)
	m.layout()
	if m.stream != nil {
		m.renderTail()
	}
	if !changed {
		return nil
	}
	m.resizeSeq++
	seq := m.resizeSeq
	return m.tick(resizeDelay, func(time.Time) tea.Msg { return resizeDoneMsg{seq} })
}

func (m *model) mouse(msg tea.MouseMsg) {
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		m.transcript.Scroll(3, m.transcriptHeight())
	case tea.MouseButtonWheelDown:
		m.transcript.Scroll(-3, m.transcriptHeight())
	}
}

func (m *model) newID() int {
	m.nextID++
	return m.nextID
}

func (m *model) addNotice(text string) {
	m.transcript.Add(&entry{id: m.newID(), kind: entryNotice, text: text})
}

func (m *model) addError(err error) {
	m.transcript.Add(&entry{id: m.newID(), kind: entryError, text: userMessage(err)})
}

// quit leaves the program, stopping an answer in progress.
func (m *model) quit() tea.Cmd {
	m.state = stateQuitting
	if m.stream != nil {
		m.stream.cancel()
	}
	return tea.Quit
}
