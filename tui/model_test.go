package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

func TestChatStreamsAnswer(t *testing.T) {
	gen := &fakeGen{deltas: words("Hello there, friend."), stats: Stats{Finish: FinishStop, TokensPerSecond: 12.5, PromptTokens: 20, ContextUsed: 30, ContextSize: 4096}}
	h := newHarness(t, gen, 60, 16)
	h.submit("/system Be kind.")
	h.ask("hi")
	screen := h.screen()
	for _, want := range []string{">>> hi", "Hello there, friend.", "ctx 30/4096", "12.5 tok/s"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	reqs := gen.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	want := []Message{{Role: RoleSystem, Content: "Be kind."}, {Role: RoleUser, Content: "hi"}}
	if fmt.Sprint(reqs[0].Messages) != fmt.Sprint(want) || reqs[0].Settings != testOptions.Settings {
		t.Errorf("request %+v, want messages %+v and settings %+v", reqs[0], want, testOptions.Settings)
	}
	h.submit("again")
	h.settle()
	if got := len(gen.requests()[1].Messages); got != 4 {
		t.Errorf("second request has %d messages, want 4 (system, user, assistant, user)", got)
	}
	if h.m.state != stateIdle || h.m.input.Value() != "" {
		t.Errorf("state %v, input %q after the answers", h.m.state, h.m.input.Value())
	}
}

func TestStreamRendersOnFramesOnly(t *testing.T) {
	h := newHarness(t, &fakeGen{block: true}, 60, 16)
	h.submit("go")
	s := h.m.stream
	h.m.tick = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	before := strings.Join(h.m.transcript.tail, "\n")
	h.send(streamChunkMsg{id: s.id, text: "many words arrive", tokens: 3})
	if got := strings.Join(h.m.transcript.tail, "\n"); got != before {
		t.Errorf("a chunk rendered the tail (%q); only frames should", got)
	}
	h.send(frameMsg{id: s.id})
	if got := strings.Join(h.m.transcript.tail, "\n"); !strings.Contains(got, "many words arrive") {
		t.Errorf("the frame did not render the tail: %q", got)
	}
	if s.tokens != 3 {
		t.Errorf("tokens %d, want 3", s.tokens)
	}
	h.key(tea.KeyCtrlC)
	h.until("idle", func(m *model) bool { return m.state == stateIdle })
}

func TestCtrlCStopsAnswer(t *testing.T) {
	h := newHarness(t, &fakeGen{deltas: words("a partial answer"), block: true}, 60, 16)
	h.submit("tell me a long story")
	h.until("streamed", func(m *model) bool { return strings.Contains(m.View(), "partial answer") })
	if !strings.Contains(h.m.statusView(), "ctrl+c stops") {
		t.Errorf("status while streaming: %q", h.m.statusView())
	}
	h.key(tea.KeyCtrlC)
	h.until("idle", func(m *model) bool { return m.state == stateIdle })
	screen := h.screen()
	if !strings.Contains(screen, "a partial answer") || !strings.Contains(screen, "— stopped") {
		t.Errorf("the partial answer or its note is missing:\n%s", screen)
	}
	last := h.m.messages[len(h.m.messages)-1]
	if last.Role != RoleAssistant || last.Content != "a partial answer" {
		t.Errorf("last message %+v, want the partial answer", last)
	}
	if strings.Contains(screen, "✗") {
		t.Errorf("stopping showed an error:\n%s", screen)
	}
}

func TestQuitKeys(t *testing.T) {
	tests := []struct {
		name  string
		steps func(h *harness)
		quits bool
	}{
		{"ctrl+c twice", func(h *harness) { h.key(tea.KeyCtrlC); h.key(tea.KeyCtrlC) }, true},
		{"ctrl+c once", func(h *harness) { h.key(tea.KeyCtrlC) }, false},
		{"ctrl+c, a key, ctrl+c", func(h *harness) { h.key(tea.KeyCtrlC); h.typeText("x"); h.key(tea.KeyCtrlC) }, false},
		{"ctrl+d on empty input", func(h *harness) { h.key(tea.KeyCtrlD) }, true},
		{"ctrl+d with text", func(h *harness) { h.typeText("abc"); h.key(tea.KeyCtrlD) }, false},
		{"/bye", func(h *harness) { h.submit("/bye") }, true},
		{"ctrl+c twice while streaming stops first", func(h *harness) {
			h.submit("q")
			h.key(tea.KeyCtrlC)
			h.until("idle", func(m *model) bool { return m.state == stateIdle })
			h.key(tea.KeyCtrlC)
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, &fakeGen{block: true}, 60, 16)
			tc.steps(h)
			if tc.quits {
				h.until("quit", func(*model) bool { return h.quit })
			}
			if got := h.m.state == stateQuitting; got != tc.quits {
				t.Errorf("quitting = %v, want %v", got, tc.quits)
			}
			if tc.quits && h.m.View() != "" {
				t.Errorf("the last view is not empty")
			}
		})
	}
}

func TestErrorsShown(t *testing.T) {
	tests := []struct {
		name     string
		gen      *fakeGen
		want     string
		messages int // messages kept after the failed answer
	}{
		{"context full", &fakeGen{err: fmt.Errorf("prompt of 5000 tokens: %w", ErrContextFull)}, "Use /clear", 0},
		{"custom message", &fakeGen{err: &Error{Msg: "The model file vanished.", Err: errors.New("ENOENT")}}, "✗ The model file vanished.", 0},
		{"panic in the generator", &fakeGen{panics: true}, "Something went wrong inside the chat", 0},
		{"empty answer", &fakeGen{stats: Stats{Finish: FinishStop}}, "The model gave no answer.", 0},
		{"error after a partial answer", &fakeGen{deltas: []string{"half"}, err: errors.New("disk on fire")}, "disk on fire", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.gen, 60, 16)
			h.submit("question")
			screen := h.screen()
			if !strings.Contains(screen, tc.want) || !strings.Contains(screen, ">>> question") {
				t.Errorf("screen lacks %q or the question:\n%s", tc.want, screen)
			}
			if len(h.m.messages) != tc.messages || h.m.state != stateIdle {
				t.Errorf("%d messages in state %v, want %d, idle", len(h.m.messages), h.m.state, tc.messages)
			}
		})
	}
}

func TestCommands(t *testing.T) {
	tests := []struct {
		line  string
		want  []string // on the screen
		check func(m *model) bool
	}{
		{"/help", []string{"/set KEY VALUE", "Ctrl+T"}, nil},
		{"/system You are terse.", []string{"System prompt set."}, func(m *model) bool { return m.system == "You are terse." }},
		{"/system", []string{"System prompt removed."}, func(m *model) bool { return m.system == "" }},
		{"/set temperature 0.2", []string{"Set temperature to 0.2."}, func(m *model) bool { return m.settings.Temperature == 0.2 }},
		{"/set temperature 9", []string{"✗ invalid setting: temperature must be a number from 0 to 2"}, func(m *model) bool { return m.settings.Temperature == 0.7 }},
		{"/set think on", []string{"Set think to on."}, func(m *model) bool { return m.settings.Think }},
		{"/set", []string{"Usage: /set KEY VALUE", "max_tokens"}, nil},
		{"/show", []string{"tiny-model", "architecture   llama", "temperature    0.7", "seed           random", "context        0 of 4096"}, nil},
		{"/clear", []string{"New conversation."}, func(m *model) bool { return len(m.messages) == 0 }},
		{"/frobnicate", []string{"✗ unknown command /frobnicate"}, nil},
		{"/save", []string{"✗ /save needs a file name"}, nil},
		{"/load", []string{"✗ /load needs a file name"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			h := newHarness(t, &fakeGen{deltas: []string{"ok"}}, 80, 30)
			h.m.system = "old"
			h.ask("hello")
			h.submit(tc.line)
			screen := h.screen()
			for _, w := range tc.want {
				if !strings.Contains(screen, w) {
					t.Errorf("screen lacks %q:\n%s", w, screen)
				}
			}
			if tc.check != nil && !tc.check(h.m) {
				t.Errorf("state after %s: system %q, settings %+v, %d messages", tc.line, h.m.system, h.m.settings, len(h.m.messages))
			}
			if len(gen(h).requests()) != 1 {
				t.Errorf("a command reached the model")
			}
		})
	}
}

func gen(h *harness) *fakeGen { return h.m.gen.(*fakeGen) }

func TestSaveAndLoad(t *testing.T) {
	path := t.TempDir() + "/chat.md"
	h := newHarness(t, &fakeGen{deltas: []string{"<think>mull</think>", "**Bold** answer"}}, 60, 16)
	h.submit("/system Be brief.")
	h.ask("first question")
	h.submit("/save " + path)
	if screen := h.screen(); !strings.Contains(screen, "Saved 2 messages to") {
		t.Fatalf("no confirmation:\n%s", screen)
	}
	h2 := newHarness(t, &fakeGen{deltas: []string{"next"}}, 60, 16)
	h2.submit("/load " + path)
	screen := h2.screen()
	if !strings.Contains(screen, "Loaded 2 messages") || !strings.Contains(screen, "first question") || !strings.Contains(screen, "Bold") {
		t.Errorf("loaded screen:\n%s", screen)
	}
	if fmt.Sprint(h2.m.messages) != fmt.Sprint(h.m.messages) || h2.m.system != "Be brief." {
		t.Errorf("loaded %+v / %q, want %+v", h2.m.messages, h2.m.system, h.m.messages)
	}
	h2.submit("/load " + t.TempDir())
	if screen := h2.screen(); !strings.Contains(screen, "✗ Could not load") {
		t.Errorf("loading a directory:\n%s", screen)
	}
	if len(h2.m.messages) != 2 {
		t.Errorf("a failed load changed the conversation")
	}
}

func TestResizeRendersMarkdownAgain(t *testing.T) {
	h := newHarness(t, &fakeGen{deltas: words(markdownAnswer)}, 60, 20)
	h.ask("plan?")
	e := h.m.transcript.entries[len(h.m.transcript.entries)-1]
	if e.mdWidth != 60 || e.md == "" {
		t.Fatalf("markdown at width %d: %q", e.mdWidth, e.md)
	}
	for _, w := range []int{80, 90, 100} { // a burst of resizes renders once, at the end
		h.send(tea.WindowSizeMsg{Width: w, Height: 20})
	}
	if e.mdWidth != 60 {
		t.Errorf("markdown rendered during the resize")
	}
	h.settle()
	if e.mdWidth != 100 {
		t.Errorf("markdown at width %d after resizing to 100", e.mdWidth)
	}
	checkScreen(t, h.m.View(), 100, 20)
}

func TestCtrlZSuspends(t *testing.T) {
	h := newHarness(t, &fakeGen{}, 60, 12)
	_, cmd := h.m.Update(tea.KeyMsg{Type: tea.KeyCtrlZ})
	if cmd == nil {
		t.Fatal("no Cmd")
	}
	if _, ok := cmd().(tea.SuspendMsg); !ok {
		t.Error("Ctrl+Z does not suspend")
	}
}
