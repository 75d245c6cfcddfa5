package tui

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// fakeGen answers with scripted deltas.
type fakeGen struct {
	deltas []string
	stats  Stats
	err    error
	block  bool // after the deltas, wait until ctx ends (a long answer)
	panics bool
	prompt int           // the prompt's tokens, told before the deltas when > 0
	gate   chan struct{} // when set, the answer ends once it is closed

	mu   sync.Mutex
	reqs []ChatRequest
}

func (g *fakeGen) Chat(ctx context.Context, req ChatRequest, emit func(Delta) error) (Stats, error) {
	g.mu.Lock()
	g.reqs = append(g.reqs, req)
	g.mu.Unlock()
	if g.panics {
		panic("boom")
	}
	if g.prompt > 0 {
		if err := emit(Delta{PromptTokens: g.prompt}); err != nil {
			return Stats{Finish: FinishCancelled}, err
		}
	}
	for _, d := range g.deltas {
		if err := emit(Delta{Text: d, Tokens: 1}); err != nil {
			return Stats{Finish: FinishCancelled}, err
		}
	}
	if g.gate != nil {
		<-g.gate
	}
	if g.block {
		<-ctx.Done()
		return Stats{Finish: FinishCancelled, CompletionTokens: len(g.deltas)}, context.Cause(ctx)
	}
	return g.stats, g.err
}

func (g *fakeGen) requests() []ChatRequest {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]ChatRequest(nil), g.reqs...)
}

// words splits text into deltas of one word each, spaces kept.
func words(text string) []string {
	var out []string
	for w := range strings.SplitAfterSeq(text, " ") {
		out = append(out, w)
	}
	return out
}

// harness runs the model's Cmds in goroutines, as bubbletea does, and
// feeds their messages to Update on the test's goroutine.
type harness struct {
	t       *testing.T
	m       *model
	msgs    chan tea.Msg
	pending int
	quit    bool
}

var testOptions = Options{
	Model:       "tiny-model",
	Info:        []InfoField{{"architecture", "llama"}, {"parameters", "1.2M"}},
	Settings:    Settings{Temperature: 0.7, TopP: 0.9, TopK: 40},
	ContextSize: 4096,
}

func newHarness(t *testing.T, gen Generator, width, height int) *harness {
	t.Helper()
	st := newStyles(lipgloss.DefaultRenderer(), true)
	m := newModel(gen, testOptions, st, func() (context.Context, context.CancelFunc) {
		return context.WithCancel(t.Context())
	})
	m.now = func() time.Time { return time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC) }
	m.tick = func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		return func() tea.Msg {
			time.Sleep(time.Millisecond)
			return fn(time.Time{})
		}
	}
	h := &harness{t: t, m: m, msgs: make(chan tea.Msg, 64)}
	h.send(tea.WindowSizeMsg{Width: width, Height: height})
	h.settle()
	return h
}

// send applies msg and starts the Cmd it returns.
func (h *harness) send(msg tea.Msg) {
	_, cmd := h.m.Update(msg)
	h.run(cmd)
}

func (h *harness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	h.pending++
	go func() { h.msgs <- cmd() }()
}

// step applies the next message of a Cmd; it reports false when none is
// pending.
func (h *harness) step() bool {
	h.t.Helper()
	if h.pending == 0 {
		return false
	}
	select {
	case msg := <-h.msgs:
		h.pending--
		switch msg := msg.(type) {
		case nil:
		case tea.BatchMsg:
			for _, c := range msg {
				h.run(c)
			}
		case tea.QuitMsg:
			h.quit = true
		default:
			h.send(msg)
		}
	case <-time.After(5 * time.Second):
		h.t.Fatalf("no message for 5 s; %d Cmds pending; screen:\n%s", h.pending, h.m.View())
	}
	return true
}

// settle runs Cmds until none is pending.
func (h *harness) settle() {
	h.t.Helper()
	for h.step() {
	}
}

// until runs Cmds until cond holds.
func (h *harness) until(what string, cond func(*model) bool) {
	h.t.Helper()
	for !cond(h.m) {
		if !h.step() {
			h.t.Fatalf("nothing pending and still not %s; screen:\n%s", what, h.m.View())
		}
	}
}

func (h *harness) typeText(s string) {
	for _, r := range s {
		h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func (h *harness) key(k tea.KeyType) { h.send(tea.KeyMsg{Type: k}) }

// submit types text and presses Enter.
func (h *harness) submit(text string) {
	h.typeText(text)
	h.key(tea.KeyEnter)
}

// screen is the view once the Cmds have settled.
func (h *harness) screen() string {
	h.t.Helper()
	h.settle()
	return h.m.View()
}

// ask submits text and waits until its Cmds have settled.
func (h *harness) ask(text string) {
	h.t.Helper()
	h.submit(text)
	h.settle()
}
