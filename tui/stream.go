package tui

import (
	"context"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

const (
	// frameInterval is how often a streaming answer is rendered again.
	frameInterval = 50 * time.Millisecond
	// maxChunk bounds the text gathered into one message to the UI.
	maxChunk = 64 << 10
	// eventBuffer is how many deltas may wait for the UI.
	eventBuffer = 256
)

// stream is the answer being generated. Its channels are written by the
// Cmd that runs Generator.Chat; everything else belongs to Update.
type stream struct {
	id     int
	cancel context.CancelFunc
	events chan streamEvent  // deltas, closed when Chat has returned
	result chan streamResult // Chat's result, sent before events is closed
	done   chan struct{}     // closed when Chat has returned

	raw     strings.Builder // the answer so far, reasoning included
	prompt  int             // tokens of the prompt, once Chat has told them
	tokens  int
	first   time.Time // when the first delta arrived
	rate    float64   // tokens per second so far
	dirty   bool      // raw changed since the last frame
	stopped bool      // the person stopped the answer
	// maxTokens is the request's max_tokens, to tell why it ended.
	maxTokens int
}

type streamEvent struct {
	text           string
	tokens, prompt int
}

type streamResult struct {
	stats Stats
	err   error
}

// streamChunkMsg carries the deltas that arrived since the last one.
type streamChunkMsg struct {
	id             int
	text           string
	tokens, prompt int
}

// streamDoneMsg reports that Chat returned.
type streamDoneMsg struct {
	id    int
	stats Stats
	err   error
}

// frameMsg asks for the streaming answer to be rendered again.
type frameMsg struct{ id int }

func newStream(id int, cancel context.CancelFunc) *stream {
	return &stream{id: id, cancel: cancel, events: make(chan streamEvent, eventBuffer),
		result: make(chan streamResult, 1), done: make(chan struct{})}
}

// chatCmd runs Chat, forwarding its deltas to the stream's channels. A
// panic inside the generator becomes the stream's error.
func chatCmd(ctx context.Context, gen Generator, req ChatRequest, s *stream) tea.Cmd {
	events, result, done := s.events, s.result, s.done
	return func() tea.Msg {
		defer close(done)
		var res streamResult
		func() {
			defer func() {
				if r := recover(); r != nil {
					res.err = recovered("the model", r)
				}
			}()
			res.stats, res.err = gen.Chat(ctx, req, func(d Delta) error {
				if d.Text == "" && d.Tokens == 0 && d.PromptTokens == 0 {
					return nil
				}
				select {
				case events <- streamEvent{text: d.Text, tokens: d.Tokens, prompt: d.PromptTokens}:
					return nil
				case <-ctx.Done():
					return context.Cause(ctx)
				}
			})
		}()
		result <- res
		close(events)
		return nil
	}
}

// waitCmd waits for the next deltas of stream id and returns them
// together (up to maxChunk bytes), or the result once Chat has returned.
// Update issues it again after each chunk.
func waitCmd(s *stream) tea.Cmd {
	id, events, result := s.id, s.events, s.result
	return func() tea.Msg {
		ev, ok := <-events
		if !ok {
			r := <-result
			return streamDoneMsg{id: id, stats: r.stats, err: r.err}
		}
		msg := streamChunkMsg{id: id, tokens: ev.tokens, prompt: ev.prompt}
		var b strings.Builder
		b.WriteString(ev.text)
		for b.Len() < maxChunk {
			select {
			case ev, ok := <-events:
				if !ok {
					msg.text = b.String()
					return msg
				}
				b.WriteString(ev.text)
				msg.tokens += ev.tokens
				msg.prompt = max(msg.prompt, ev.prompt)
			default:
				msg.text = b.String()
				return msg
			}
		}
		msg.text = b.String()
		return msg
	}
}

// wait blocks until Chat has returned, at most d; it reports whether it did.
func (s *stream) wait(d time.Duration) bool {
	select {
	case <-s.done:
		return true
	case <-time.After(d):
		return false
	}
}
