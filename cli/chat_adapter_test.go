package cli

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mlxrun/mlx/models/fixture"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/tui"
)

// loadChatGenerator loads a fixture model with a small context.
func loadChatGenerator(t *testing.T, ctxSize int, elem ...string) (*chatGenerator, string) {
	t.Helper()
	ref := fixture.Path(t, elem...)
	e, err := runtime.Load(t.Context(), ref, runtime.Options{Threads: 2, Ctx: ctxSize})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return newChatGenerator(e, sample.Defaults()), ref
}

var greedy = tui.Settings{Temperature: 0, TopP: 1, MaxTokens: 6}

func TestChatGeneratorStreams(t *testing.T) {
	conversation := []tui.Message{
		{Role: tui.RoleSystem, Content: "Be brief."},
		{Role: tui.RoleUser, Content: "Hello"},
		{Role: tui.RoleAssistant, Content: "Hi!", Reasoning: "a greeting"},
		{Role: tui.RoleUser, Content: "How are you?"},
	}
	for _, model := range [][]string{{"gguf", "llama-tiny-Q8_0.gguf"}, {"models", "qwen3-tiny"}} {
		t.Run(model[1], func(t *testing.T) {
			g, _ := loadChatGenerator(t, 512, model...)
			var runs []string
			for range 2 {
				var text strings.Builder
				tokens, prompt := 0, 0
				st, err := g.Chat(t.Context(), tui.ChatRequest{Messages: conversation, Settings: greedy}, func(d tui.Delta) error {
					if d.PromptTokens > 0 && (prompt > 0 || tokens > 0) {
						t.Errorf("the prompt's length came again, or after the answer began")
					}
					text.WriteString(d.Text)
					tokens += d.Tokens
					prompt += d.PromptTokens
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if st.ContextSize != 512 || st.ContextUsed != st.PromptTokens+st.CompletionTokens || st.PromptTokens == 0 {
					t.Errorf("stats %+v", st)
				}
				if prompt != st.PromptTokens {
					t.Errorf("streamed a prompt of %d tokens, stats say %d", prompt, st.PromptTokens)
				}
				if st.Finish != tui.FinishStop && st.Finish != tui.FinishLength || st.CompletionTokens > 6 || tokens != st.CompletionTokens {
					t.Errorf("stats %+v with %d tokens streamed, want at most 6", st, tokens)
				}
				runs = append(runs, text.String())
			}
			if runs[0] != runs[1] {
				t.Errorf("greedy answers differ: %q and %q", runs[0], runs[1])
			}
		})
	}
}

func TestChatGeneratorThink(t *testing.T) {
	g, ref := loadChatGenerator(t, 256, "models", "qwen3-tiny")
	msgs := []tui.Message{{Role: tui.RoleUser, Content: "hi"}}
	for _, think := range []bool{false, true} {
		prompt, err := g.render(t.Context(), tui.ChatRequest{Messages: msgs, Settings: tui.Settings{Think: think}})
		if err != nil {
			t.Fatal(err)
		}
		if closed := strings.HasSuffix(prompt, "</think>\n\n"); closed == think {
			t.Errorf("think %v: prompt ends %q", think, prompt[max(0, len(prompt)-30):])
		}
	}
	if opt := chatOptions(g.e, ref, g, runOptions{}); !opt.Settings.Think || opt.Model != "qwen3-tiny" {
		t.Errorf("options %+v: want thinking on by default for a template that knows enable_thinking", opt)
	}
}

func TestChatGeneratorErrors(t *testing.T) {
	g, _ := loadChatGenerator(t, 64, "gguf", "llama-tiny-Q8_0.gguf")
	stop := errors.New("stop")
	tests := []struct {
		name  string
		msg   string
		emit  func(tui.Delta) error
		check func(error) bool
	}{
		{"context full", strings.Repeat("many words ", 100), func(tui.Delta) error { return nil }, func(err error) bool {
			var ue *tui.Error
			return errors.Is(err, tui.ErrContextFull) && errors.As(err, &ue) && strings.Contains(ue.Msg, "/clear")
		}},
		{"emit fails", "hi", func(tui.Delta) error { return stop }, func(err error) bool { return errors.Is(err, stop) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := tui.ChatRequest{Messages: []tui.Message{{Role: tui.RoleUser, Content: tc.msg}}, Settings: greedy}
			st, err := g.Chat(context.Background(), req, tc.emit)
			if !tc.check(err) || st.Finish != tui.FinishCancelled {
				t.Errorf("error %v, finish %q", err, st.Finish)
			}
		})
	}
}
