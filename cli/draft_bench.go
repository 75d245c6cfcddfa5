package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/sample"
)

// addSpecBench gives mlx bench the speculative decoding flags: with
// --draft or --lookup it measures greedy generation on a repetitive
// prompt, plain and speculative, instead of the llama-bench tests.
func addSpecBench(cmd *cobra.Command) {
	addSpecFlags(cmd)
	run := cmd.RunE
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		spec := specOptions(cmd)
		if spec.Draft == "" && spec.Lookup == 0 {
			return run(cmd, args)
		}
		if err := applyKernelEnv(); err != nil {
			return err
		}
		f := cmd.Flags()
		var o benchOptions
		o.gen, _ = f.GetInt("n-gen")
		o.threads, _ = f.GetInt("threads")
		o.reps, _ = f.GetInt("repetitions")
		o.kvType, _ = f.GetString("kv-type")
		return runSpecBench(cmd.Context(), cmd.OutOrStdout(), args[0], o, spec)
	}
}

// specPrompt is text whose continuation repeats what came before: a list
// to copy again.
func specPrompt() string {
	var b strings.Builder
	b.WriteString("Copy this list again, exactly, line by line.\n\n")
	for range 2 {
		for i := 1; i <= 40; i++ {
			fmt.Fprintf(&b, "item %d: value %d\n", i, i*7%97)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// specMode is one way of decoding that the benchmark times.
type specMode struct {
	name string
	spec runtime.Speculation
}

// specModes returns plain decoding and the speculative modes that spec
// allows.
func specModes(spec runtime.SpecOptions) []specMode {
	zero, conf := 0, 0.0
	modes := []specMode{{"plain", runtime.Speculation{DraftTokens: &zero, LookupTokens: &zero}}}
	if spec.Lookup > 0 {
		n := spec.Lookup
		modes = append(modes, specMode{"lookup " + strconv.Itoa(n), runtime.Speculation{DraftTokens: &zero, LookupTokens: &n}})
	}
	if spec.Draft != "" {
		n, name := max(spec.DraftTokens, 1), "draft "
		if spec.Draft == runtime.MTPDraft {
			name = "mtp "
		}
		modes = append(modes, specMode{name + strconv.Itoa(n), runtime.Speculation{DraftTokens: &n, LookupTokens: &zero}},
			specMode{name + strconv.Itoa(n) + " conf 0", runtime.Speculation{DraftTokens: &n, LookupTokens: &zero, Confidence: &conf}})
	}
	return modes
}

// runSpecBench times greedy generation of o.gen tokens in every mode,
// o.reps times after a warm-up, the modes in turn, and prints tokens per second after the
// first token, the speed-up over plain decoding and the acceptance rate.
func runSpecBench(ctx context.Context, w io.Writer, ref string, o benchOptions, spec runtime.SpecOptions) error {
	if o.gen < 2 || o.reps < 1 {
		return fmt.Errorf("bench: -n must be at least 2 and -r at least 1 with --draft or --lookup")
	}
	kv, err := kvcache.ParseType(o.kvType)
	if err != nil {
		return err
	}
	e, err := runtime.Load(ctx, ref, runtime.Options{Threads: o.threads, KVType: kv, Spec: spec})
	if err != nil {
		return err
	}
	defer e.Close()
	prompt := e.Chat().Encode(specPrompt())
	p := sample.Defaults()
	p.Temperature, p.MaxTokens = 0, o.gen
	b := bufio.NewWriter(w)
	defer b.Flush()
	fmt.Fprintf(b, "%s: greedy, prompt %d tokens, %d generated, %d threads\n\n", modelLabel(e.Info()), len(prompt), o.gen, o.threads)
	fmt.Fprintf(b, "| %-18s | %16s | %8s | %17s |\n| %s | %s: | %s: | %s: |\n", "mode", "t/s", "speed-up", "accepted", strings.Repeat("-", 18),
		strings.Repeat("-", 15), strings.Repeat("-", 7), strings.Repeat("-", 16))
	modes := specModes(spec)
	rates := make([][]float64, len(modes))
	stats := make([]runtime.SpecStats, len(modes))
	var want []int32
	for rep := -1; rep < o.reps; rep++ { // modes take turns, so that a change of load touches them alike
		for i, m := range modes {
			var ids []int32
			res, err := e.Generate(ctx, runtime.Request{Prompt: prompt, Params: p, Spec: m.spec}, func(ev runtime.Event) error {
				ids = append(ids, ev.Tokens...)
				return nil
			})
			if err != nil {
				return err
			}
			if want == nil {
				want = ids
			} else if !slices.Equal(ids, want) {
				fmt.Fprintf(b, "warning: %s generated other tokens than plain decoding\n", m.name)
			}
			if rep >= 0 {
				rates[i] = append(rates[i], res.Timings.DecodeRate())
				stats[i].Proposed += res.Spec.Proposed
				stats[i].Accepted += res.Spec.Accepted
			}
		}
	}
	base, _ := meanStddev(rates[0])
	for i, m := range modes {
		avg, sd := meanStddev(rates[i])
		fmt.Fprintf(b, "| %-18s | %16s | %7.2fx | %17s |\n", m.name, fmt.Sprintf("%.2f ± %.2f", avg, sd), avg/base,
			fmt.Sprintf("%.1f%% (%d/%d)", 100*stats[i].AcceptRate(), stats[i].Accepted, stats[i].Proposed))
	}
	return nil
}
