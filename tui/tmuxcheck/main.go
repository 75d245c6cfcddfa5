// Command tmuxcheck is the terminal chat with a scripted model, for
// run.sh: its answers are known words, so the check can assert on what a
// person reads (an answer's line breaks, the conversation left on the
// screen after the chat), which the random fixture model cannot give. Only
// run.sh builds it; it is no part of the mlx binary.
package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mlxrun/mlx/tui"
)

// haiku is the answer to a message that asks for one.
const haiku = "Soft rain on the roof\nwhispers to the sleeping town\npuddles hold the sky"

// contextSize is the context the status line shows.
const contextSize = 2048

func main() {
	opt := tui.Options{Model: "scripted", ContextSize: contextSize, Settings: tui.Settings{TopP: 1}}
	if err := tui.Run(context.Background(), scripted{}, opt); err != nil {
		fmt.Fprintln(os.Stderr, "tmuxcheck:", err)
		os.Exit(1)
	}
}

// scripted answers a message that mentions a haiku with the haiku, and
// any other by repeating it, a word every few milliseconds.
type scripted struct{}

func (scripted) Chat(ctx context.Context, req tui.ChatRequest, emit func(tui.Delta) error) (tui.Stats, error) {
	last := req.Messages[len(req.Messages)-1].Content
	answer := "You said: " + last
	if strings.Contains(strings.ToLower(last), "haiku") {
		answer = haiku
	}
	prompt := 0
	for _, m := range req.Messages {
		prompt += len(strings.Fields(m.Content)) + 4
	}
	st := tui.Stats{PromptTokens: prompt, ContextSize: contextSize, Finish: tui.FinishCancelled}
	for w := range strings.SplitAfterSeq(answer, " ") {
		select {
		case <-ctx.Done():
			return st, context.Cause(ctx)
		case <-time.After(20 * time.Millisecond):
		}
		if err := emit(tui.Delta{Text: w, Tokens: 1}); err != nil {
			return st, err
		}
		st.CompletionTokens++
	}
	st.Finish, st.ContextUsed, st.TokensPerSecond = tui.FinishStop, prompt+st.CompletionTokens, 50
	return st, nil
}
