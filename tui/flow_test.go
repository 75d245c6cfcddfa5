package tui

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
)

// echoGen echoes the last message; a message with "long" gets an answer
// that goes on until it is stopped.
type echoGen struct{}

func (echoGen) Chat(ctx context.Context, req ChatRequest, emit func(Delta) error) (Stats, error) {
	last := req.Messages[len(req.Messages)-1].Content
	for _, w := range words("You said: " + last) {
		if err := emit(Delta{Text: w, Tokens: 1}); err != nil {
			return Stats{Finish: FinishCancelled}, err
		}
	}
	if strings.Contains(last, "long") {
		for i := 0; ; i++ {
			select {
			case <-ctx.Done():
				return Stats{Finish: FinishCancelled}, context.Cause(ctx)
			case <-time.After(5 * time.Millisecond):
			}
			if err := emit(Delta{Text: " more", Tokens: 1}); err != nil {
				return Stats{Finish: FinishCancelled}, err
			}
		}
	}
	return Stats{Finish: FinishStop, TokensPerSecond: 99, PromptTokens: 10, ContextUsed: 20, ContextSize: 4096}, nil
}

// TestFlow drives the real bubbletea program: type, stream, stop, quit.
func TestFlow(t *testing.T) {
	m := newModel(echoGen{}, testOptions, newStyles(lipgloss.DefaultRenderer(), true),
		func() (context.Context, context.CancelFunc) { return context.WithCancel(t.Context()) })
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	o := &outputSince{r: tm.Output()}

	o.act(func() { tm.Type("hello"); tm.Send(tea.KeyMsg{Type: tea.KeyEnter}) })
	o.waitFor(t, "You said: hello", "99.0 tok/s")

	o.act(func() { tm.Type("a long one"); tm.Send(tea.KeyMsg{Type: tea.KeyEnter}) })
	o.waitFor(t, "more more", "ctrl+c stops")
	o.act(func() { tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC}) })
	o.waitFor(t, "— stopped")

	o.act(func() { tm.Type("/bye"); tm.Send(tea.KeyMsg{Type: tea.KeyEnter}) })
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))

	final := tm.FinalModel(t).(*model)
	if final.state != stateQuitting || final.stream != nil {
		t.Errorf("final state %v, stream %v", final.state, final.stream)
	}
	if n := len(final.messages); n != 4 {
		t.Fatalf("%d messages, want 4 (two questions, an answer, a stopped answer)", n)
	}
	if got := final.messages[3].Content; !strings.HasPrefix(got, "You said: a long one more") {
		t.Errorf("the stopped answer is %q", got)
	}
}

// outputSince collects a program's output and looks for text written
// after the last action.
type outputSince struct {
	r    io.Reader
	out  bytes.Buffer
	mark int
}

func (o *outputSince) act(f func()) {
	io.Copy(&o.out, o.r)
	o.mark = o.out.Len()
	f()
}

func (o *outputSince) waitFor(t *testing.T, want ...string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		io.Copy(&o.out, o.r)
		missing := ""
		for _, w := range want {
			if !bytes.Contains(o.out.Bytes()[o.mark:], []byte(w)) {
				missing = w
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q in the output after 5 s:\n%q", missing, o.out.Bytes()[o.mark:])
		}
		time.Sleep(10 * time.Millisecond)
	}
}
