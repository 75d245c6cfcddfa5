package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"

	"github.com/spf13/cobra"

	"github.com/mlxrun/mlx/models/config"
	"github.com/mlxrun/mlx/runtime"
)

// embedChunk is how many input lines mlx embed runs through the model at
// once: enough to batch short lines, few enough to print as it goes.
const embedChunk = 64

// maxEmbedLine bounds one line of standard input.
const maxEmbedLine = 16 << 20

// poolingUsage is the help of the --pooling flags.
const poolingUsage = "how embeddings pool the tokens: mean, cls, last or none (default: the model's; last for a decoder)"

// servePoolingUsage is the help of mlx serve --pooling, which also takes
// rank: the model scores documents on /v1/rerank.
const servePoolingUsage = "how embeddings pool the tokens: mean, cls, last or none; rank to score documents on /v1/rerank " +
	"with a reranker (default: the model's; last for a decoder)"

// checkPooling refuses a --pooling value the runtime does not compute;
// rank is valid where it is accepted.
func checkPooling(p string, rank bool) error {
	switch {
	case p == "", p == config.PoolMean, p == config.PoolCLS, p == config.PoolLast, p == config.PoolNone:
		return nil
	case rank && p == config.PoolRank:
		return nil
	case rank:
		return fmt.Errorf("invalid value %q for --pooling: want mean, cls, last, none or rank", p)
	}
	return fmt.Errorf("invalid value %q for --pooling: want mean, cls, last or none", p)
}

// embedOptions are the flags of mlx embed.
type embedOptions struct {
	pooling       string
	dimensions    int
	raw, truncate bool
	ctx, threads  int
}

func init() { register(newEmbedCmd) }

func newEmbedCmd() *cobra.Command {
	var o embedOptions
	cmd := &cobra.Command{
		Use:   "embed MODEL [TEXT...]",
		Short: "Print the embedding of each text, one JSON array per line",
		Long: `Print the embedding vector of each TEXT, or of each line of standard input
when no TEXT is given, as one JSON array of numbers per line, in order.
Vectors are scaled to unit length (--raw keeps them as the model gives
them) and pooled as the model says: the mean or the first token for
sentence-transformers and embedding GGUF files, the last token for other
decoders; --pooling chooses. With --pooling none each line is an array of
one vector per token. --dimensions keeps the first N values of each vector
(Matryoshka models) before scaling.`,
		Example: `  mlx embed ./bge-small-en-v1.5 "The capital of France is Paris"
  cut -f2 docs.tsv | mlx embed model.gguf > vectors.jsonl`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeModel,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkBounds(cmd.Flags(), atLeast("ctx", 0), atLeast("threads", 0), atLeast("dimensions", 0)); err != nil {
				return err
			}
			if err := checkPooling(o.pooling, false); err != nil {
				return err
			}
			if err := resolveModelArg(cmd, args); err != nil {
				return err
			}
			return runEmbed(cmd, args[0], args[1:], o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.pooling, "pooling", "", poolingUsage)
	f.IntVar(&o.dimensions, "dimensions", 0, "keep the first N values of each vector (0: all)")
	f.BoolVar(&o.raw, "raw", false, "print the vectors without scaling them to unit length")
	f.BoolVar(&o.truncate, "truncate", false, "embed the first tokens of a text longer than the context instead of failing")
	f.IntVar(&o.ctx, "ctx", 0, "context length in tokens (0: the model's, at most 4096)")
	f.IntVar(&o.threads, "threads", 0, "compute threads (0: one per physical core)")
	return cmd
}

// runEmbed loads the model and embeds the texts, or the lines of standard
// input, a chunk at a time.
func runEmbed(cmd *cobra.Command, path string, texts []string, o embedOptions) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	e, err := runtime.Load(ctx, path, runtime.Options{Threads: o.threads, Ctx: o.ctx, Pooling: o.pooling, Parallel: 1})
	if err != nil {
		return orInterrupted(ctx, err)
	}
	defer e.Close()
	if hid := e.Config().HiddenSize; o.dimensions > hid {
		return fmt.Errorf("invalid value %d for --dimensions: the model's vectors have %d", o.dimensions, hid)
	}
	out := bufio.NewWriter(cmd.OutOrStdout())
	defer out.Flush()
	em := &embedder{e: e, o: o, out: out}
	if len(texts) > 0 {
		for chunk := range slices.Chunk(texts, embedChunk) {
			if err := em.run(ctx, chunk); err != nil {
				return orInterrupted(ctx, err)
			}
		}
		return nil
	}
	sc := bufio.NewScanner(cmd.InOrStdin())
	sc.Buffer(make([]byte, 0, 64<<10), maxEmbedLine)
	var chunk []string
	for sc.Scan() {
		if chunk = append(chunk, sc.Text()); len(chunk) == embedChunk {
			if err := em.run(ctx, chunk); err != nil {
				return orInterrupted(ctx, err)
			}
			chunk = chunk[:0]
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading standard input: %w", err)
	}
	if len(chunk) > 0 {
		return orInterrupted(ctx, em.run(ctx, chunk))
	}
	return nil
}

// embedder embeds chunks of texts and prints their vectors.
type embedder struct {
	e    *runtime.Engine
	o    embedOptions
	out  io.Writer
	line int // texts printed so far
}

// run embeds texts together and prints one line per text.
func (em *embedder) run(ctx context.Context, texts []string) error {
	tok, limit := em.e.Tokenizer(), em.e.Info().Context
	inputs := make([][]int32, len(texts))
	for i, t := range texts {
		ids := tok.Encode(t, true)
		n := em.line + i + 1
		switch {
		case len(ids) == 0:
			return fmt.Errorf("text %d has no tokens to embed", n)
		case len(ids) > limit && !em.o.truncate:
			return fmt.Errorf("text %d has %d tokens and the context holds %d (--truncate embeds its first %d, --ctx raises the context)", n, len(ids), limit, limit)
		}
		inputs[i] = ids[:min(len(ids), limit)]
	}
	vecs, err := em.e.Embed(ctx, inputs, em.e.Pooling())
	if err != nil {
		return err
	}
	hid := em.e.Config().HiddenSize
	for _, v := range vecs {
		var rows [][]float32
		for r := range slices.Chunk(v, hid) {
			rows = append(rows, em.shape(r))
		}
		var line any = rows
		if em.e.Pooling() != config.PoolNone {
			line = rows[0]
		}
		b, err := json.Marshal(line)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(em.out, "%s\n", b); err != nil {
			return err
		}
	}
	em.line += len(texts)
	return nil
}

// shape cuts a vector to --dimensions and scales it to unit length unless
// --raw.
func (em *embedder) shape(v []float32) []float32 {
	if d := em.o.dimensions; d > 0 && d < len(v) {
		v = v[:d]
	}
	if !em.o.raw {
		runtime.Normalize(v)
	}
	return v
}
