package tui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// key handles a key press.
func (m *model) key(msg tea.KeyMsg) tea.Cmd {
	if m.state == stateQuitting {
		return nil
	}
	if msg.Type == tea.KeyCtrlC {
		return m.interrupt()
	}
	m.quitArmed, m.flash = false, ""
	switch msg.Type {
	case tea.KeyCtrlD:
		if m.input.Value() == "" {
			return m.quit()
		}
	case tea.KeyCtrlZ:
		return tea.Suspend
	case tea.KeyCtrlT:
		m.transcript.ToggleReasoning()
		if m.stream != nil {
			m.renderTail()
		}
		return nil
	case tea.KeyPgUp:
		m.transcript.Scroll(m.transcriptHeight()-1, m.transcriptHeight())
		return nil
	case tea.KeyPgDown:
		m.transcript.Scroll(1-m.transcriptHeight(), m.transcriptHeight())
		return nil
	case tea.KeyCtrlJ:
		m.input.Newline()
		return nil
	case tea.KeyEnter:
		if msg.Alt {
			m.input.Newline()
			return nil
		}
		return m.enter()
	case tea.KeyUp:
		if !msg.Alt && m.input.Prev() {
			return nil
		}
	case tea.KeyDown:
		if !msg.Alt && m.input.Next() {
			return nil
		}
	}
	return m.input.Update(msg)
}

// interrupt is Ctrl+C: it stops the answer in progress; when idle it
// clears the input, and a second one in a row exits.
func (m *model) interrupt() tea.Cmd {
	if m.stream != nil {
		if !m.stream.stopped {
			m.stream.stopped = true
			m.stream.cancel()
		}
		return nil
	}
	if m.quitArmed {
		return m.quit()
	}
	m.quitArmed = true
	m.input.Reset()
	return nil
}

// enter sends the input, runs it as a command, or adds a line to it.
func (m *model) enter() tea.Cmd {
	if m.stream != nil {
		m.flash = "an answer is coming: wait, or stop it with ctrl+c"
		return nil
	}
	text, send := m.input.Enter()
	if !send {
		return nil
	}
	m.input.Reset()
	m.transcript.offset = 0
	if strings.HasPrefix(text, "/") {
		return m.command(text)
	}
	return m.send(text)
}

// send adds the person's message and starts the answer.
func (m *model) send(text string) tea.Cmd {
	m.transcript.Add(&entry{id: m.newID(), kind: entryUser, text: text})
	m.messages = append(m.messages, Message{Role: RoleUser, Content: text})
	req := ChatRequest{Messages: m.conversation(), Settings: m.settings}
	ctx, cancel := m.newCtx()
	s := newStream(m.newID(), cancel)
	s.maxTokens = m.settings.MaxTokens
	m.stream, m.state = s, stateStreaming
	m.renderTail()
	return tea.Batch(chatCmd(ctx, m.gen, req, s), waitCmd(s), m.frameTick(s.id))
}

// conversation returns a copy of the messages, the system prompt first.
func (m *model) conversation() []Message {
	msgs := make([]Message, 0, len(m.messages)+1)
	if m.system != "" {
		msgs = append(msgs, Message{Role: RoleSystem, Content: m.system})
	}
	return append(msgs, m.messages...)
}
