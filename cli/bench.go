package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

func init() { register(newBenchCmd) }

// benchOptions are the flags of mlx bench.
type benchOptions struct {
	prompt, gen, depth, threads, reps int
	batch                             int
	kvType                            string
	json                              bool
	startup                           int // runs of the start-up test, 0 for the speed tests
	readMiB                           int // buffer of the streaming-read test, 0 skips it
	embed                             int // inputs of the embeddings test, 0 for the speed tests
	cpuProfile                        string
	device                            string // runtime.Options.Device
}

// benchRow is one test's result, with the keys of llama-bench -o json.
type benchRow struct {
	Model     string    `json:"model_filename"`
	Type      string    `json:"model_type"`
	Size      int64     `json:"model_size"`
	Params    int64     `json:"model_n_params"`
	Backend   string    `json:"backends"`
	Threads   int       `json:"n_threads"`
	Prompt    int       `json:"n_prompt"`
	Gen       int       `json:"n_gen"`
	Depth     int       `json:"n_depth"`
	AvgNs     int64     `json:"avg_ns"`
	StddevNs  int64     `json:"stddev_ns"`
	AvgTs     float64   `json:"avg_ts"`
	StddevTs  float64   `json:"stddev_ts"`
	SamplesTs []float64 `json:"samples_ts"`
	benchExtra
}

func newBenchCmd() *cobra.Command {
	var o benchOptions
	cmd := &cobra.Command{
		Use:   "bench MODEL",
		Short: "Measure prompt processing and generation speed",
		Long: `Measure how fast MODEL (a .gguf file, a model directory, or a reference
as mlx run takes it, downloaded when missing) computes a prompt of -p
tokens from an empty cache (ppP) and generates -n tokens one at a time
(tgN), as llama-bench does: random token ids, one warm-up run,
then -r timed repetitions, reported as mean ± standard deviation of tokens
per second. Load time and peak memory follow the table, then the weight
bytes decode reads per second against the streaming-read bandwidth of the
same number of threads. --startup N instead times N runs of
"mlx run MODEL --max-tokens 1" from process start to exit. --embed N
instead times the embedding of N inputs of -p tokens in one call.`,
		Example: `  mlx bench model.gguf
  mlx bench -p 512 -n 128 -t 4 -r 5 --json ./Qwen3-0.6B`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeModel,
		PreRunE: func(cmd *cobra.Command, args []string) error {
			if err := checkBounds(cmd.Flags(), atLeast("threads", 1), atLeast("batch", 1), atLeast("n-prompt", 0),
				atLeast("n-gen", 0), atLeast("n-depth", 0), atLeast("repetitions", 1), atLeast("read-mib", 0), atLeast("startup", 0), atLeast("embed", 0)); err != nil {
				return err
			}
			if err := kvTypeFromEnv(cmd.Flags()); err != nil {
				return err
			}
			if o.startup > 0 {
				return nil // each timed "mlx run MODEL" resolves it
			}
			return resolveModelArg(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := applyKernelEnv(); err != nil {
				return err
			}
			o.device = deviceOption(cmd)
			return runBench(cmd.Context(), cmd.OutOrStdout(), args[0], o)
		},
	}
	f := cmd.Flags()
	f.IntVarP(&o.prompt, "n-prompt", "p", 512, "prompt tokens of the prefill test (0 skips it)")
	f.IntVarP(&o.gen, "n-gen", "n", 128, "tokens of the generation test (0 skips it)")
	f.IntVarP(&o.depth, "n-depth", "d", 0, "tokens of context already in the KV cache when each test starts, as llama-bench -d")
	f.IntVarP(&o.threads, "threads", "t", kernels.PhysicalCores(), "compute threads")
	f.IntVarP(&o.reps, "repetitions", "r", 5, "timed repetitions of each test")
	f.IntVarP(&o.batch, "batch", "b", runtime.DefaultBatch, "most prompt tokens per forward pass")
	addKVTypeFlag(f, &o.kvType)
	f.BoolVar(&o.json, "json", false, "print a JSON list of results, like llama-bench -o json")
	f.IntVar(&o.startup, "startup", 0, "time this many start-ups to the first token instead of the speed tests")
	f.IntVar(&o.readMiB, "read-mib", defaultReadMiB(kernels.LastLevelCache()), "MiB of the streaming-read bandwidth test (0 skips it); the default is four times the last-level cache, within 256 to 2048")
	f.IntVar(&o.embed, "embed", 0, "time embedding this many inputs of -p tokens instead of the speed tests")
	addDeviceFlag(f)
	registerBenchProfile(f, &o.cpuProfile)
	cmd.AddCommand(newBenchServeCmd())
	addSpecBench(cmd)
	return cmd
}

// defaultReadMiB sizes the streaming-read test from the last-level cache
// (llc bytes, 0 if unknown): four times it, so that the passes read from
// memory and not from a cache that holds much of the buffer, at least 256
// MiB and at most 2 GiB (the test runs with the model still loaded).
func defaultReadMiB(llc int64) int {
	return int(min(max((4*llc)>>20, 256), 2<<10))
}

func runBench(ctx context.Context, w io.Writer, ref string, o benchOptions) error {
	if o.startup > 0 {
		return runStartup(ctx, w, ref, o)
	}
	if o.embed > 0 {
		return runBenchEmbed(ctx, w, ref, o)
	}
	if o.prompt < 0 || o.gen < 0 || o.prompt+o.gen == 0 || o.reps < 1 || o.readMiB < 0 {
		return fmt.Errorf("bench: -p and -n must not be negative nor both 0, -r must be at least 1 and --read-mib not negative")
	}
	kv, err := kvcache.ParseType(o.kvType)
	if err != nil {
		return err
	}
	// The context holds the depth, the longer test and the copy of the
	// depth's last block that every run writes after it.
	n := o.depth + max(o.prompt, o.gen, 1)
	if o.depth > 0 {
		n += runtime.BlockSize
	}
	e, err := runtime.Load(ctx, ref, runtime.Options{Threads: o.threads, Ctx: n, KVType: kv, Batch: o.batch, Device: o.device})
	if err != nil {
		return err
	}
	defer e.Close()
	info := e.Info()
	rng := rand.New(rand.NewPCG(1, 2))
	randTokens := func(n int) []int32 {
		ids := make([]int32, n)
		for i := range ids {
			ids[i] = int32(rng.IntN(e.Config().VocabSize))
		}
		return ids
	}
	stopProfile, err := startBenchProfile(o.cpuProfile)
	if err != nil {
		return err
	}
	var tests []runtime.BenchTest
	if o.prompt > 0 {
		tests = append(tests, runtime.BenchTest{Prompt: randTokens(o.prompt)})
	}
	if o.gen > 0 {
		tests = append(tests, runtime.BenchTest{Gen: randTokens(o.gen)})
	}
	pre, dec, err := e.Benchmark(ctx, randTokens(o.depth), tests, o.reps+1)
	if err != nil {
		_ = stopProfile() // the test's error is the one to report
		return err
	}
	var rows []benchRow
	for i, test := range tests {
		var samples []time.Duration
		for rep := 1; rep <= o.reps; rep++ { // run 0 is the warm-up
			samples = append(samples, pre[i][rep]+dec[i][rep])
		}
		row := benchResult(ref, info, o.threads, len(test.Prompt), len(test.Gen), samples)
		row.Depth = o.depth
		rows = append(rows, row)
	}
	if err := stopProfile(); err != nil {
		return err
	}
	if err := addExtra(ctx, e, ref, o, rows); err != nil {
		return err
	}
	if o.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	return writeBenchTable(w, info, rows)
}

// benchResult summarises the timings of one test.
func benchResult(ref string, info runtime.Info, threads, prompt, gen int, samples []time.Duration) benchRow {
	n := float64(prompt + gen)
	ts := make([]float64, len(samples))
	ns := make([]float64, len(samples))
	for i, d := range samples {
		ts[i], ns[i] = n/d.Seconds(), float64(d.Nanoseconds())
	}
	avgNs, sdNs := meanStddev(ns)
	avgTs, sdTs := meanStddev(ts)
	return benchRow{Model: ref, Type: modelLabel(info), Size: info.WeightBytes, Params: info.Params, Backend: backendLabel(info),
		Threads: threads, Prompt: prompt, Gen: gen, AvgNs: int64(avgNs), StddevNs: int64(sdNs),
		AvgTs: avgTs, StddevTs: sdTs, SamplesTs: ts}
}

// meanStddev returns the mean and the sample standard deviation.
func meanStddev(x []float64) (float64, float64) {
	var sum float64
	for _, v := range x {
		sum += v
	}
	mean := sum / float64(len(x))
	if len(x) < 2 {
		return mean, 0
	}
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(x)-1))
}

// modelLabel names a model as llama-bench does: "llama 135M Q8_0".
func modelLabel(info runtime.Info) string {
	return fmt.Sprintf("%s %s %s", info.Arch, paramsLabel(info.Params), info.WeightType)
}

// paramsLabel rounds a parameter count to thousands, millions or billions
// (one decimal); a count that rounds to 1000 of a unit takes the next.
func paramsLabel(n int64) string {
	switch {
	case n >= 999_500_000:
		return strconv.FormatFloat(float64(n)/1e9, 'f', 1, 64) + "B"
	case n >= 999_500:
		return strconv.FormatInt((n+5e5)/1e6, 10) + "M"
	}
	return strconv.FormatInt((n+500)/1e3, 10) + "K"
}

// writeBenchTable prints the results as llama-bench's markdown table, then
// the load time and peak memory.
func writeBenchTable(w io.Writer, info runtime.Info, rows []benchRow) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "| %-30s | %10s | %10s | %-10s | %7s | %15s | %20s |\n", "model", "size", "params", "backend", "threads", "test", "t/s")
	fmt.Fprintf(b, "| %s | %s: | %s: | %s | %s: | %s: | %s: |\n", strings.Repeat("-", 30), strings.Repeat("-", 9),
		strings.Repeat("-", 9), strings.Repeat("-", 10), strings.Repeat("-", 6), strings.Repeat("-", 14), strings.Repeat("-", 19))
	for _, r := range rows {
		test := "pp" + strconv.Itoa(r.Prompt)
		if r.Gen > 0 {
			test = "tg" + strconv.Itoa(r.Gen)
		}
		if r.Depth > 0 {
			test += " @ d" + strconv.Itoa(r.Depth)
		}
		fmt.Fprintf(b, "| %-30s | %10s | %10s | %-10s | %7d | %15s | %20s |\n", r.Type, sizeLabel(r.Size),
			fmt.Sprintf("%.2f M", float64(r.Params)/1e6), r.Backend, r.Threads, test, fmt.Sprintf("%.2f ± %.2f", r.AvgTs, r.StddevTs))
	}
	fmt.Fprintf(b, "\nload time: %d ms, KV cache: %s (%v, %d bytes per token), kernels: %s, device: %s, ", info.LoadTime.Milliseconds(),
		sizeLabel(info.KVBytes), info.KVType, info.KVPerToken, kernels.Implementation(), info.Device)
	writeExtra(b, rows)
	return b.Flush()
}

func sizeLabel(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20))
}
