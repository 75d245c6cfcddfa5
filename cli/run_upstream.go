package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mlxrun/mlx/server/upstream"
	"github.com/mlxrun/mlx/tui"
)

// remoteRef returns the upstream and its model name when ref is NAME/model
// of an upstream given by --upstream (or MLX_UPSTREAM).
func (u *upstreamFlags) remoteRef(f *pflag.FlagSet, ref string) (*upstream.Client, string, error) {
	ups, err := u.clients(f)
	if err != nil {
		return nil, "", err
	}
	name, model, ok := strings.Cut(ref, "/")
	for _, up := range ups {
		if ok && up.Name() == name && model != "" {
			return up, model, nil
		}
	}
	return nil, "", nil
}

// remoteChat is the chat of a model an upstream serves: each answer is a
// streaming chat completion there. Reasoning comes back in
// <think>…</think>, as a local model writes it.
type remoteChat struct {
	up    *upstream.Client
	model string
	flags *pflag.FlagSet
	o     runOptions
}

// remoteBody is the chat completions (or, raw, completions) request of
// mlx run; the sampling parameters are sent only when set, so that the
// upstream's defaults hold.
type remoteBody struct {
	Model         string           `json:"model"`
	Messages      []map[string]any `json:"messages,omitempty"`
	Prompt        *string          `json:"prompt,omitempty"`
	Stream        bool             `json:"stream"`
	StreamOptions map[string]bool  `json:"stream_options"`
	Temperature   *float64         `json:"temperature,omitempty"`
	TopP          *float64         `json:"top_p,omitempty"`
	TopK          *int             `json:"top_k,omitempty"`
	MinP          *float64         `json:"min_p,omitempty"`
	Seed          *int64           `json:"seed,omitempty"`
	MaxTokens     int              `json:"max_tokens,omitempty"`
	Kwargs        map[string]any   `json:"chat_template_kwargs,omitempty"`
}

// body is the request of msgs with the flags that were set.
func (r *remoteChat) body(msgs []tui.Message) *remoteBody {
	b := &remoteBody{Model: r.model, Stream: true, StreamOptions: map[string]bool{"include_usage": true}, MaxTokens: r.o.maxTokens}
	for _, m := range msgs {
		b.Messages = append(b.Messages, map[string]any{"role": m.Role, "content": m.Content})
	}
	set := r.flags.Changed
	if set("temperature") {
		b.Temperature = &r.o.temperature
	}
	if set("top-p") {
		b.TopP = &r.o.topP
	}
	if set("top-k") {
		b.TopK = &r.o.topK
	}
	if set("min-p") {
		b.MinP = &r.o.minP
	}
	if set("seed") {
		b.Seed = &r.o.seed
	}
	return b
}

// stream sends b and writes the answer's text through emit, reasoning
// inside <think>…</think>.
func (r *remoteChat) stream(ctx context.Context, b *remoteBody, path string, emit func(text string) error) (upstream.Usage, string, error) {
	body, err := json.Marshal(b)
	if err != nil {
		return upstream.Usage{}, "", err
	}
	var usage upstream.Usage
	finish, thinking := "", false
	err = r.up.Stream(ctx, path, body, func(ev upstream.Event) error {
		var text strings.Builder
		if ev.Reasoning != "" && !thinking {
			thinking = true
			text.WriteString("<think>")
		}
		text.WriteString(ev.Reasoning)
		if thinking && (ev.Content != "" || ev.Finish != "") {
			thinking = false
			text.WriteString("</think>\n\n")
		}
		text.WriteString(ev.Content)
		if ev.Usage != nil {
			usage = *ev.Usage
		}
		if ev.Finish != "" {
			finish = ev.Finish
		}
		if text.Len() == 0 {
			return nil
		}
		return emit(text.String())
	})
	return usage, finish, err
}

// Chat implements tui.Generator.
func (r *remoteChat) Chat(ctx context.Context, req tui.ChatRequest, emit func(tui.Delta) error) (tui.Stats, error) {
	b := r.body(req.Messages)
	s := req.Settings
	b.Temperature, b.TopP, b.TopK, b.Seed, b.MaxTokens = &s.Temperature, &s.TopP, &s.TopK, s.Seed, s.MaxTokens
	b.Kwargs = map[string]any{"enable_thinking": s.Think}
	usage, finish, err := r.stream(ctx, b, upstream.ChatPath, func(text string) error { return emit(tui.Delta{Text: text}) })
	stats := tui.Stats{PromptTokens: usage.Prompt, CompletionTokens: usage.Completion, ContextUsed: usage.Prompt + usage.Completion,
		Finish: tui.FinishCancelled}
	if err == nil {
		stats.Finish = tui.FinishStop
		if finish == tui.FinishLength {
			stats.Finish = tui.FinishLength
		}
	}
	return stats, err
}

// runRemote answers a prompt (pipe mode) or opens the chat with a model an
// upstream serves.
func runRemote(ctx context.Context, cmd *cobra.Command, r *remoteChat, ref string, args []string) error {
	if chatWanted(cmd, args) {
		// The chat sends its settings with every answer: they start from
		// the flags (their defaults are sample.Defaults), since the
		// upstream's model defaults are not known here.
		set := tui.Settings{Temperature: r.o.temperature, TopP: r.o.topP, TopK: r.o.topK, MaxTokens: r.o.maxTokens,
			Seed: r.body(nil).Seed, Think: true}
		return tui.Run(ctx, r, tui.Options{Model: ref, Settings: set, System: r.o.system,
			Info: []tui.InfoField{{Name: "upstream", Value: r.up.Name() + " (" + r.up.URL() + ")"}, {Name: "model there", Value: r.model}}})
	}
	text, err := runMessage(cmd.InOrStdin(), args[1:])
	if err != nil {
		return err
	}
	var msgs []tui.Message
	if r.o.system != "" {
		msgs = append(msgs, tui.Message{Role: tui.RoleSystem, Content: r.o.system})
	}
	b, path := r.body(append(msgs, tui.Message{Role: tui.RoleUser, Content: text})), upstream.ChatPath
	if r.o.raw {
		b.Messages, b.Prompt, path = nil, &text, upstream.CompletionPath
	}
	out := bufio.NewWriter(cmd.OutOrStdout())
	last := ""
	usage, finish, err := r.stream(ctx, b, path, func(text string) error {
		last = text
		if _, err := io.WriteString(out, text); err != nil {
			return err
		}
		return out.Flush()
	})
	if last != "" && !strings.HasSuffix(last, "\n") {
		out.WriteString("\n")
		out.Flush()
	}
	if r.o.verbose {
		fmt.Fprintf(cmd.ErrOrStderr(), "upstream %s: prompt %d tokens (%d cached), answer %d tokens, finished: %s\n",
			r.up.Name(), usage.Prompt, usage.Cached, usage.Completion, finish)
	}
	return err
}
