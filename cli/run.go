package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/mlxrun/mlx/models/bounded"
	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/chatmodel"
	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/sample"
)

// maxRunInput bounds the text read from standard input.
const maxRunInput = 64 << 20

func init() { register(newRunCmd) }

// runBounds are the ranges of the numeric flags of mlx run.
var runBounds = []bound{
	samplingBound("temperature", "temperature"), samplingBound("top-p", "top_p"), samplingBound("min-p", "min_p"), atLeast("top-k", 0),
	atLeast("max-tokens", 0), atLeast("ctx", 0), atLeast("threads", 1),
}

// runOptions are the flags of mlx run.
type runOptions struct {
	temperature, topP, minP float64
	topK                    int
	seed                    int64
	maxTokens, ctx, threads int
	system, kvType          string
	verbose, raw            bool
	upstreams               upstreamFlags
}

func newRunCmd() *cobra.Command {
	var o runOptions
	cmd := &cobra.Command{
		Use:   "run MODEL [PROMPT]",
		Short: "Chat with a model in the terminal, or answer a prompt (a filter in a pipe)",
		Long: `Chat with MODEL in the terminal: with no PROMPT and a terminal on both ends,
run opens the interactive chat. Otherwise it answers PROMPT, streaming the
answer to standard output and nothing else.

MODEL is a .gguf file, a model directory, a Hugging Face reference
(org/name, org/name:QUANT, org/name/file.gguf) or an alias such as
smollm2:135m (mlx list --aliases); a reference not in the cache is
downloaded first.

When standard input is not a terminal, it is the message: PROMPT, if given,
comes first, then a blank line, then the input. The model's chat template
turns the message into the prompt (--raw gives the text to the model as it
is). Sampling defaults come from the model's generation_config.json.

With --upstream NAME=URL (or MLX_UPSTREAM), MODEL NAME/model is a model
that OpenAI-compatible server serves: the chat and the answer are
streaming chat completions there (--raw: completions), with the sampling
flags that were set.`,
		Example: `  mlx run smollm2:135m
  mlx run ./Qwen3-0.6B "Why is the sky blue?"
  git diff | mlx run model.gguf "Write a commit message for this change"
  mlx run --raw --temperature 0 model.gguf "The capital of France is"`,
		Args:              cobra.RangeArgs(1, 2),
		ValidArgsFunction: completeModel,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkBounds(cmd.Flags(), runBounds...); err != nil {
				return err
			}
			if err := kvTypeFromEnv(cmd.Flags()); err != nil {
				return err
			}
			if err := applyKernelEnv(); err != nil {
				return err
			}
			up, model, err := o.upstreams.remoteRef(cmd.Flags(), args[0])
			if err != nil {
				return err
			}
			if up != nil {
				ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
				defer stop()
				return orInterrupted(ctx, runRemote(ctx, cmd, &remoteChat{up: up, model: model, flags: cmd.Flags(), o: o}, args[0], args))
			}
			if chatWanted(cmd, args) {
				return runChat(cmd, args[0], o)
			}
			text, err := runMessage(cmd.InOrStdin(), args[1:])
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			return orInterrupted(ctx, runPrompt(ctx, cmd, args[0], text, o))
		},
	}
	f := cmd.Flags()
	d := sample.Defaults() // when the model's generation_config.json sets none
	f.Float64Var(&o.temperature, "temperature", d.Temperature, "sampling temperature; 0 always picks the most likely token")
	f.Float64Var(&o.topP, "top-p", d.TopP, "keep the most likely tokens up to this total probability")
	f.IntVar(&o.topK, "top-k", d.TopK, "keep this many most likely tokens; 0 keeps all")
	f.Float64Var(&o.minP, "min-p", d.MinP, "drop tokens less likely than this fraction of the most likely")
	f.Int64Var(&o.seed, "seed", 0, "random seed, for repeatable answers (random when not set)")
	f.IntVar(&o.maxTokens, "max-tokens", 0, "most tokens to generate; 0 runs to the end of the context")
	f.IntVar(&o.ctx, "ctx", 0, fmt.Sprintf("context length in tokens (default: the model's, at most %d)", runtime.DefaultContext))
	f.IntVar(&o.threads, "threads", kernels.PhysicalCores(), "compute threads")
	f.StringVar(&o.system, "system", "", "system message")
	addKVTypeFlag(f, &o.kvType)
	f.BoolVar(&o.verbose, "verbose", false, "print load and speed figures to standard error")
	f.BoolVar(&o.raw, "raw", false, "give the text to the model as it is, without the chat template")
	addSpecFlags(cmd)
	o.upstreams.register(f)
	addDeviceFlag(f)
	return cmd
}

// runMessage returns the user's message: PROMPT, standard input when it is
// not a terminal, or both separated by a blank line.
func runMessage(stdin io.Reader, args []string) (string, error) {
	prompt := strings.Join(args, "")
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if prompt == "" {
			return "", errors.New("the interactive chat needs a terminal on standard output too: give a PROMPT argument, or pipe the message on standard input")
		}
		return prompt, nil
	}
	b, err := bounded.Read(stdin, maxRunInput)
	if errors.Is(err, bounded.ErrTooLarge) {
		return "", fmt.Errorf("standard input is larger than %d MiB", maxRunInput>>20)
	}
	if err != nil {
		return "", fmt.Errorf("reading standard input: %w", err)
	}
	// The line end that ends a file or echo's output is not part of the
	// message: the same question typed in the chat or sent to the server
	// has none, and the model should see the same prompt.
	switch in := strings.TrimRight(string(b), "\r\n"); {
	case prompt == "" && strings.TrimSpace(in) == "":
		return "", errors.New("no message: give a PROMPT argument or pipe text on standard input")
	case prompt == "":
		return in, nil
	case in == "":
		return prompt, nil
	default:
		return prompt + "\n\n" + in, nil
	}
}

// runPrompt loads the model, builds the prompt and streams the answer.
func runPrompt(ctx context.Context, cmd *cobra.Command, ref, text string, o runOptions) error {
	kv, err := kvcache.ParseType(o.kvType)
	if err != nil {
		return err
	}
	path, err := resolveModel(ctx, cmd.ErrOrStderr(), ref)
	if err != nil {
		return err
	}
	e, err := runtime.Load(ctx, path, runtime.Options{Threads: o.threads, Ctx: o.ctx, KVType: kv, Spec: specOptions(cmd), Device: deviceOption(cmd)})
	if err != nil {
		return err
	}
	defer e.Close()
	reportDevice(cmd.ErrOrStderr(), e.Info())
	return pipeAnswer(ctx, cmd, e, text, o)
}

// pipeAnswer builds the prompt of text and streams the answer to the
// command's output.
func pipeAnswer(ctx context.Context, cmd *cobra.Command, e engine, text string, o runOptions) error {
	req, err := pipeRequest(ctx, cmd, e.Chat(), text, o)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(cmd.OutOrStdout())
	last := ""
	write := func(text string) error {
		if text == "" {
			return nil
		}
		last = text
		if _, err := out.WriteString(text); err != nil {
			return err
		}
		return out.Flush()
	}
	var ht *channelText // a reasoning channel of special tokens, made into <think> and text
	if req.KeepSpecial {
		ht = newChannelText(channelFormat(e.Chat().Templates()))
	}
	res, err := e.Generate(ctx, req, func(ev runtime.Event) error {
		if ht != nil {
			return write(ht.feed(ev.Text))
		}
		return write(ev.Text)
	})
	if ht != nil && err == nil {
		err = write(ht.flush())
	}
	if last != "" && !strings.HasSuffix(last, "\n") {
		// A text file, and the shell's next prompt, start on a line of their own.
		out.WriteString("\n")
		out.Flush()
	}
	if o.verbose {
		writeRunStats(cmd.ErrOrStderr(), e.Info(), res)
	}
	if err != nil && ctx.Err() != nil {
		// What was generated is printed. On a terminal the answer's newline
		// came after the echoed ^C: the message needs no other.
		e := interrupted(errInterrupted)
		e.newLine = last == "" || !isTerminal(cmd.OutOrStdout())
		return e
	}
	return err
}

// pipeRequest builds the request pipe mode gives the engine for text.
func pipeRequest(ctx context.Context, cmd *cobra.Command, cm *chatmodel.Model, text string, o runOptions) (runtime.Request, error) {
	ids, channels, err := promptIDs(ctx, cmd.ErrOrStderr(), cm, text, o)
	if err != nil {
		return runtime.Request{}, err
	}
	return runtime.Request{Prompt: ids, Params: runParams(cmd.Flags(), o, cm), KeepSpecial: channels}, nil
}

// promptIDs renders the message with the model's chat template (or takes it
// raw) and tokenizes it; channels reports a template whose reasoning comes
// in a channel of special tokens (gpt-oss's Harmony, Gemma 4).
func promptIDs(ctx context.Context, stderr io.Writer, cm *chatmodel.Model, text string, o runOptions) (ids []int32, channels bool, err error) {
	if o.raw {
		return cm.Encode(text), false, nil
	}
	if cm.Templates() == nil && cm.Err() == nil {
		fmt.Fprintln(stderr, "mlx: the model has no chat template; giving it the text as it is")
		return cm.Encode(text), false, nil
	}
	var msgs []chat.Message
	if o.system != "" {
		msgs = append(msgs, chat.Message{Role: "system", Content: chat.Text(o.system)})
	}
	msgs = append(msgs, chat.Message{Role: "user", Content: chat.Text(text)})
	prompt, err := cm.Render(ctx, chat.Input{Messages: msgs, AddGenerationPrompt: true}, "")
	if err != nil {
		return nil, false, err
	}
	return cm.Encode(prompt), channelFormat(cm.Templates()) != "", nil
}

// runParams builds the sampling parameters: a flag that was set wins over
// the model's defaults (its generation_config.json over sample.Defaults),
// the ones every HTTP API uses too.
func runParams(flags *pflag.FlagSet, o runOptions, cm *chatmodel.Model) sample.Params {
	p := cm.Defaults()
	if flags.Changed("temperature") {
		p.Temperature = o.temperature
	}
	if flags.Changed("top-p") {
		p.TopP = o.topP
	}
	if flags.Changed("min-p") {
		p.MinP = o.minP
	}
	if flags.Changed("top-k") {
		p.TopK = o.topK
	}
	if flags.Changed("seed") {
		p.Seed = &o.seed
	}
	p.MaxTokens = o.maxTokens
	return p
}

// writeRunStats prints what --verbose shows.
func writeRunStats(w io.Writer, info runtime.Info, res runtime.Result) {
	t := res.Timings
	fmt.Fprintf(w, "load: %d ms (%s, weights %s, KV cache %s %v, %d bytes per token, %d threads, kernels %s, device %s)\n",
		info.LoadTime.Milliseconds(), info.WeightType, sizeLabel(info.WeightBytes), sizeLabel(info.KVBytes), info.KVType, info.KVPerToken,
		info.Threads, kernels.Implementation(), info.Device)
	fmt.Fprintf(w, "prompt: %d tokens (%d cached), %.1f tokens/s; first token after %d ms\n",
		res.Usage.Prompt, res.Usage.Cached, t.PrefillRate(), t.TTFT.Milliseconds())
	fmt.Fprintf(w, "answer: %d tokens, %.1f tokens/s, finished: %s\n", res.Usage.Completion, t.DecodeRate(), res.Finish)
	writeSpecStats(w, res)
}
