package tui

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// chunk appends streamed text; the screen follows on the next frame.
func (m *model) chunk(msg streamChunkMsg) tea.Cmd {
	s := m.stream
	if s == nil || msg.id != s.id {
		return nil
	}
	if s.first.IsZero() {
		s.first = m.now()
	}
	s.raw.WriteString(msg.text)
	s.tokens += msg.tokens
	s.prompt = max(s.prompt, msg.prompt)
	s.dirty = true
	return waitCmd(s)
}

// frame renders the streaming answer again if it changed, and schedules
// the next frame while the answer lasts.
func (m *model) frame(msg frameMsg) tea.Cmd {
	s := m.stream
	if s == nil || msg.id != s.id {
		return nil
	}
	if s.dirty {
		if secs := m.now().Sub(s.first).Seconds(); secs > 0 {
			s.rate = float64(s.tokens) / secs
		}
		m.renderTail()
	}
	return m.frameTick(s.id)
}

func (m *model) frameTick(id int) tea.Cmd {
	return m.tick(frameInterval, func(time.Time) tea.Msg { return frameMsg{id} })
}

// renderTail renders the streaming answer into the transcript's tail.
func (m *model) renderTail() {
	s := m.stream
	s.dirty = false
	reasoning, answer, thinking := splitThink(s.raw.String())
	if reasoning == "" && answer == "" && !thinking {
		m.transcript.SetTail([]string{m.st.note.Render(margin + "…")})
		return
	}
	v := answerView{reasoning: reasoning, answer: answer, thinking: thinking}
	m.transcript.SetTail(renderAnswer(m.st, v, m.transcript.width, m.transcript.showReasoning))
}

// finish turns the streamed answer into a transcript entry and a message
// of the conversation, and shows how it ended.
func (m *model) finish(msg streamDoneMsg) tea.Cmd {
	s := m.stream
	if s == nil || msg.id != s.id {
		return nil
	}
	m.stream = nil
	m.flash = "" // its hints were about the answer
	m.transcript.SetTail(nil)
	if m.state == stateStreaming {
		m.state = stateIdle
	}
	if st := msg.stats; st.ContextSize > 0 {
		m.ctxSize = st.ContextSize
		if st.PromptTokens > 0 {
			m.ctxUsed = st.ContextUsed
		}
	}
	if msg.stats.TokensPerSecond > 0 {
		m.rate = msg.stats.TokensPerSecond
	} else if s.rate > 0 {
		m.rate = s.rate
	}
	failed := msg.err != nil && !s.stopped && !errors.Is(msg.err, context.Canceled)
	reasoning, answer, _ := splitThink(s.raw.String())
	var cmd tea.Cmd
	switch {
	case answer != "" || reasoning != "":
		e := &entry{id: m.newID(), kind: entryAnswer, text: answer, reasoning: reasoning, note: endNote(s.stopped, s.maxTokens, msg.stats)}
		m.transcript.Add(e)
		m.messages = append(m.messages, Message{Role: RoleAssistant, Content: answer, Reasoning: reasoning})
		cmd = m.markdownCmd([]*entry{e})
	default:
		// No answer: forget the question, so that the conversation keeps
		// alternating; it stays on the screen.
		if len(m.messages) > 0 {
			m.messages = m.messages[:len(m.messages)-1]
		}
		if s.stopped {
			m.addNotice("Stopped before the answer began.")
		} else if !failed {
			m.addNotice("The model gave no answer.")
		}
	}
	if failed {
		m.addError(msg.err)
	}
	return cmd
}

// endNote says why an answer ended, when it did not simply finish.
func endNote(stopped bool, maxTokens int, st Stats) string {
	switch {
	case stopped:
		return "stopped"
	case st.Finish != FinishLength:
		return ""
	case maxTokens > 0 && st.CompletionTokens >= maxTokens:
		return fmt.Sprintf("cut at max_tokens (%d)", maxTokens)
	}
	return "cut at the end of the context: /clear starts a new conversation"
}
