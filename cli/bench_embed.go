package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/mlxrun/mlx/runtime"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

// embedRow is the result of the embeddings test: benchRow's token rate and
// the same runs counted in embeddings per second.
type embedRow struct {
	benchRow
	Inputs   int     `json:"n_embd_inputs"`
	AvgEs    float64 `json:"avg_embd_s"`
	StddevEs float64 `json:"stddev_embd_s"`
}

// runBenchEmbed times Engine.Embed on --embed inputs of -p random tokens
// each, all in one call, as a request to /v1/embeddings runs them: one
// warm-up, then -r timed repetitions.
func runBenchEmbed(ctx context.Context, w io.Writer, ref string, o benchOptions) error {
	if o.prompt < 1 || o.embed > runtime.MaxEmbedInputs {
		return fmt.Errorf("bench: --embed needs -p of at least 1 token per input and at most %d inputs", runtime.MaxEmbedInputs)
	}
	kv, err := kvcache.ParseType(o.kvType)
	if err != nil {
		return err
	}
	// Parallel sizes the KV cache so that every input fits at once.
	e, err := runtime.Load(ctx, ref, runtime.Options{Threads: o.threads, Ctx: o.prompt, KVType: kv, Batch: o.batch,
		Parallel: min(o.embed, runtime.MaxParallel)})
	if err != nil {
		return err
	}
	defer e.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := make([][]int32, o.embed)
	for i := range inputs {
		inputs[i] = make([]int32, o.prompt)
		for k := range inputs[i] {
			inputs[i][k] = int32(rng.IntN(e.Config().VocabSize))
		}
	}
	stopProfile, err := startBenchProfile(o.cpuProfile)
	if err != nil {
		return err
	}
	var samples []time.Duration
	for rep := -1; rep < o.reps; rep++ { // rep -1 is the warm-up
		start := time.Now()
		if _, err := e.Embed(ctx, inputs, e.Pooling()); err != nil {
			_ = stopProfile() // the embedding's error is the one to report
			return err
		}
		if rep >= 0 {
			samples = append(samples, time.Since(start))
		}
	}
	if err := stopProfile(); err != nil {
		return err
	}
	info := e.Info()
	row := embedRow{benchRow: benchResult(ref, info, o.threads, o.prompt*o.embed, 0, samples), Inputs: o.embed}
	row.LoadMs, row.KVBytes = info.LoadTime.Milliseconds(), info.KVBytes
	es := make([]float64, len(samples))
	for i, d := range samples {
		es[i] = float64(o.embed) / d.Seconds()
	}
	row.AvgEs, row.StddevEs = meanStddev(es)
	if o.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode([]embedRow{row})
	}
	_, err = fmt.Fprintf(w, "%s, %d threads, pooling %s: %d inputs of %d tokens: %.2f ± %.2f embeddings/s (%.2f tokens/s)\n",
		modelLabel(info), o.threads, e.Pooling(), o.embed, o.prompt, row.AvgEs, row.StddevEs, row.AvgTs)
	return err
}
