package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/chatmodel"
	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/sample"
	"github.com/mlxrun/mlx/tui"
)

// chatWanted reports whether mlx run should open the interactive chat: a
// model and no prompt, with a terminal on standard input and output.
func chatWanted(cmd *cobra.Command, args []string) bool {
	in, ok := cmd.InOrStdin().(*os.File)
	return len(args) == 1 && ok && term.IsTerminal(int(in.Fd())) && isTerminal(cmd.OutOrStdout())
}

// runChat loads the model and runs the terminal chat until the person
// leaves.
func runChat(cmd *cobra.Command, ref string, o runOptions) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	kv, err := kvcache.ParseType(o.kvType)
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	path, err := resolveModel(ctx, stderr, ref)
	if err != nil {
		return orInterrupted(ctx, err)
	}
	if isTerminal(stderr) {
		fmt.Fprintf(stderr, "loading %s…", ref)
	}
	e, err := runtime.Load(ctx, path, runtime.Options{Threads: o.threads, Ctx: o.ctx, KVType: kv, Spec: specOptions(cmd), Device: deviceOption(cmd)})
	if isTerminal(stderr) {
		fmt.Fprint(stderr, "\r\x1b[K") // the line goes; errors follow on a clean line
	}
	if err != nil {
		return orInterrupted(ctx, err)
	}
	defer e.Close()
	if err := e.Chat().Err(); err != nil {
		return err // the model's chat templates do not compile
	}
	g := newChatGenerator(e, runParams(cmd.Flags(), o, e.Chat()))
	err = tui.Run(ctx, g, chatOptions(e, ref, g, o))
	if errors.Is(err, context.Canceled) {
		return nil // interrupted by a signal: the chat has ended cleanly
	}
	return err
}

// engine is what the chat needs of runtime.Engine.
type engine interface {
	Generate(ctx context.Context, req runtime.Request, emit func(runtime.Event) error) (runtime.Result, error)
	Info() runtime.Info
	Chat() *chatmodel.Model
}

// chatGenerator adapts the engine to tui.Generator: it renders the
// conversation with the model's chat template, tokenizes it, and streams
// the answer.
type chatGenerator struct {
	e    engine
	chat *chatmodel.Model
	ts   *chat.Templates // nil when the model has none
	base sample.Params   // the sampling parameters the chat does not set
}

func newChatGenerator(e engine, base sample.Params) *chatGenerator {
	return &chatGenerator{e: e, chat: e.Chat(), ts: e.Chat().Templates(), base: base}
}

// Chat renders the conversation, generates the answer and streams it.
func (g *chatGenerator) Chat(ctx context.Context, req tui.ChatRequest, emit func(tui.Delta) error) (tui.Stats, error) {
	ctxSize := g.e.Info().Context
	stats := tui.Stats{ContextSize: ctxSize, Finish: tui.FinishCancelled}
	prompt, err := g.render(ctx, req)
	if err != nil {
		return stats, err
	}
	ids := g.chat.Encode(prompt)
	if len(ids) >= ctxSize {
		stats.PromptTokens, stats.ContextUsed = len(ids), len(ids)
		return stats, contextFull(len(ids), ctxSize, fmt.Errorf("%w: the prompt has %d tokens", runtime.ErrContextLength, len(ids)))
	}
	first := tui.Delta{PromptTokens: len(ids)}
	if thinkOpened(prompt) {
		first.Text = "<think>" // the template opened the reasoning: the answer starts inside it
	}
	if err := emit(first); err != nil {
		return stats, err
	}
	var ht *channelText // a reasoning channel of special tokens, made into <think> and text
	if f := channelFormat(g.ts); f != "" {
		ht = newChannelText(f)
	}
	res, err := g.e.Generate(ctx, runtime.Request{Prompt: ids, Params: g.params(req.Settings), KeepSpecial: ht != nil}, func(ev runtime.Event) error {
		text := ev.Text
		if ht != nil {
			text = ht.feed(text)
		}
		return emit(tui.Delta{Text: text, Tokens: len(ev.Tokens)})
	})
	if ht != nil && err == nil {
		if rest := ht.flush(); rest != "" {
			err = emit(tui.Delta{Text: rest})
		}
	}
	stats.PromptTokens, stats.CompletionTokens = res.Usage.Prompt, res.Usage.Completion
	stats.ContextUsed = res.Usage.Prompt + res.Usage.Completion
	stats.TokensPerSecond = res.Timings.DecodeRate()
	if res.Finish != "" {
		stats.Finish = string(res.Finish)
	}
	if errors.Is(err, runtime.ErrContextLength) {
		err = contextFull(len(ids), ctxSize, err)
	}
	return stats, err
}

// render applies the chat template; without one the conversation is given
// as labelled text.
func (g *chatGenerator) render(ctx context.Context, req tui.ChatRequest) (string, error) {
	if g.ts == nil && g.chat.Err() == nil {
		var b strings.Builder
		for _, m := range req.Messages {
			fmt.Fprintf(&b, "%s: %s\n\n", m.Role, m.Content)
		}
		return b.String() + "assistant:", nil
	}
	msgs := make([]chat.Message, len(req.Messages))
	for i, m := range req.Messages {
		msgs[i] = chat.Message{Role: m.Role, Content: chat.Text(m.Content), ReasoningContent: m.Reasoning}
	}
	prompt, err := g.chat.Render(ctx, chat.Input{Messages: msgs, AddGenerationPrompt: true,
		Kwargs: map[string]any{"enable_thinking": req.Settings.Think}}, "")
	if msg, ok := chat.RaisedMessage(err); ok {
		return "", &tui.Error{Msg: "The model's chat template refused the conversation: " + msg, Err: err}
	}
	return prompt, err
}

// params returns the base parameters with the chat's settings.
func (g *chatGenerator) params(s tui.Settings) sample.Params {
	p := g.base
	p.Temperature, p.TopP, p.TopK, p.MaxTokens, p.Seed = s.Temperature, s.TopP, s.TopK, s.MaxTokens, s.Seed
	return p
}

// thinkOpened reports a prompt that ends inside an opened <think> block.
func thinkOpened(prompt string) bool {
	s := strings.TrimRight(prompt, " \n")
	return strings.HasSuffix(s, "<think>")
}

func contextFull(n, size int, err error) error {
	return &tui.Error{
		Msg: fmt.Sprintf("The conversation (%d tokens) no longer fits in the context of %d tokens: /clear starts a new one (mlx run --ctx sets a larger context).", n, size),
		Err: fmt.Errorf("%w: %w", tui.ErrContextFull, err),
	}
}

// chatOptions describes the model and the starting settings to the chat.
func chatOptions(e engine, ref string, g *chatGenerator, o runOptions) tui.Options {
	info := e.Info()
	p := g.base
	think := false
	if g.ts != nil && g.ts.Default != nil {
		think = strings.Contains(g.ts.Default.Source, "enable_thinking") || strings.Contains(g.ts.Default.Source, "<think>")
	}
	template := "none (the conversation is given as text)"
	if g.ts != nil && g.ts.Default != nil {
		template = g.ts.Default.Origin
	}
	return tui.Options{
		Model: strings.TrimSuffix(filepath.Base(filepath.Clean(ref)), ".gguf"),
		Info: []tui.InfoField{
			{Name: "path", Value: info.Path},
			{Name: "architecture", Value: info.Arch},
			{Name: "format", Value: fmt.Sprintf("%s, %s", info.Format, info.WeightType)},
			{Name: "parameters", Value: paramsLabel(info.Params)},
			{Name: "memory", Value: fmt.Sprintf("weights %s, KV cache %s (%v)", sizeLabel(info.WeightBytes), sizeLabel(info.KVBytes), info.KVType)},
			{Name: "threads", Value: fmt.Sprint(info.Threads)},
			{Name: "device", Value: info.Device},
			{Name: "chat template", Value: template},
			{Name: "load time", Value: info.LoadTime.Round(1e6).String()},
		},
		Settings:    tui.Settings{Temperature: p.Temperature, TopP: p.TopP, TopK: p.TopK, MaxTokens: p.MaxTokens, Seed: p.Seed, Think: think},
		System:      o.system,
		ContextSize: info.Context,
	}
}
