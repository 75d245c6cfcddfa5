package tui

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// syncBuffer is a bytes.Buffer safe for the program's writer goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRunRestoresTerminal runs the whole program on a pipe and checks that
// every way out leaves the alternate screen and shows the cursor again,
// then leaves the conversation on the normal screen.
func TestRunRestoresTerminal(t *testing.T) {
	tests := []struct {
		name string
		keys []string // written one after the other, waiting for the answer between
		gen  *fakeGen
		ctx  bool     // end by cancelling the context instead
		left []string // lines left on the normal screen
	}{
		{"bye", []string{"hello\r", "/bye\r"}, &fakeGen{deltas: strings.SplitAfter(haiku, " ")}, false,
			append([]string{">>> hello"}, strings.Split(haiku, "\n")...)},
		{"ctrl+d", []string{"\x04"}, &fakeGen{}, false, nil},
		{"ctrl+c twice", []string{"\x03", "\x03"}, &fakeGen{}, false, nil},
		{"context ends during an answer", []string{"tell me more\r"}, &fakeGen{deltas: []string{"and"}, block: true}, true,
			[]string{">>> tell me more", "and"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			in, keys := io.Pipe()
			defer keys.Close()
			var out syncBuffer
			done := make(chan error, 1)
			opt := testOptions
			opt.Input, opt.Output = in, &out
			go func() { done <- Run(ctx, tc.gen, opt) }()
			for i, k := range tc.keys {
				if _, err := keys.Write([]byte(k)); err != nil {
					t.Fatal(err)
				}
				if i < len(tc.keys)-1 || tc.ctx {
					waitUntil(t, func() bool { return len(tc.gen.requests()) > 0 || !strings.Contains(k, "\r") })
					time.Sleep(50 * time.Millisecond)
				}
			}
			if tc.ctx {
				cancel()
			}
			select {
			case err := <-done:
				if tc.ctx != (err != nil) {
					t.Errorf("Run returned %v", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Run did not return")
			}
			screen := out.String()
			for _, seq := range []string{"\x1b[?1049h", "\x1b[?1049l", "\x1b[?25h"} {
				if !strings.Contains(screen, seq) {
					t.Errorf("the output lacks %q", seq)
				}
			}
			i, j := strings.LastIndex(screen, "\x1b[?1049l"), strings.LastIndex(screen, "\x1b[?1049h")
			if i < j {
				t.Fatalf("the alternate screen was entered after it was left")
			}
			after := strings.Split(ansi.Strip(screen[i:]), "\n")
			for k := range after {
				after[k] = strings.TrimSpace(after[k])
			}
			for _, l := range tc.left {
				if !slices.Contains(after, l) {
					t.Errorf("no line %q on the normal screen after the chat:\n%s", l, strings.Join(after, "\n"))
				}
			}
			if len(tc.left) == 0 && strings.TrimSpace(strings.Join(after, "")) != "" {
				t.Errorf("an empty chat left %q on the normal screen", after)
			}
		})
	}
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}

func TestPanicInCmdBecomesError(t *testing.T) {
	h := newHarness(t, &fakeGen{}, 60, 12)
	h.run(safeCmd("a test", func() tea.Msg { panic("kaboom") }))
	screen := h.screen()
	if !strings.Contains(screen, "✗ Something went wrong inside the chat (a test)") {
		t.Errorf("screen:\n%s", screen)
	}
	if h.m.state != stateIdle {
		t.Errorf("state %v after a panic, want idle", h.m.state)
	}
}
