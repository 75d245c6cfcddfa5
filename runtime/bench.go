package runtime

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
)

// BenchTest is one test of Benchmark: Prompt computed in chunks, then
// every token of Gen on its own after it (one decode step each, logits
// included, no sampling). Either may be empty.
type BenchTest struct{ Prompt, Gen []int32 }

// Benchmark times the model alone, as llama-bench does: reps runs of each
// test. The runs start after the tokens of depth, computed once, untimed,
// and shared by every run, as llama-bench -d gives each test a context
// already that long; with no depth they start from an empty cache. It
// returns, per test, the prefill and decode time of each run.
func (e *Engine) Benchmark(ctx context.Context, depth []int32, tests []BenchTest, reps int) (prefill, decode [][]time.Duration, err error) {
	need := len(depth)
	if need > 0 {
		need += BlockSize // the copy of depth's last block
	}
	lists := [][]int32{depth}
	for _, t := range tests {
		n := len(depth) + len(t.Prompt) + len(t.Gen)
		if len(t.Prompt)+len(t.Gen) == 0 || n > e.opt.Ctx || reps < 1 {
			return nil, nil, fmt.Errorf("%w: %d runs of %d tokens in a context of %d", ErrContextLength, reps, n, e.opt.Ctx)
		}
		if err := e.fits(need + len(t.Prompt) + len(t.Gen)); err != nil {
			return nil, nil, err
		}
		lists = append(lists, t.Prompt, t.Gen)
	}
	for _, list := range lists {
		for _, id := range list {
			if id < 0 || int(id) >= e.cfg.VocabSize {
				return nil, nil, fmt.Errorf("%w: token id %d outside the vocabulary of %d", ErrInvalidRequest, id, e.cfg.VocabSize)
			}
		}
	}
	prefill, decode = make([][]time.Duration, len(tests)), make([][]time.Duration, len(tests))
	err = e.runExclusive(ctx, func(j *submission) error {
		base := e.kv.Arena().NewCache()
		defer e.kv.Drop(base)
		if !e.kv.Grow(base, len(depth)) {
			return e.noRoom(len(depth))
		}
		if err := e.benchPrompt(j, base, depth, 0); err != nil {
			return err
		}
		for i, t := range tests {
			for range reps {
				pre, dec, err := e.benchRun(j, base, len(depth), t.Prompt, t.Gen)
				if err != nil {
					return err
				}
				prefill[i], decode[i] = append(prefill[i], pre), append(decode[i], dec)
			}
		}
		return nil
	})
	return prefill, decode, err
}

// benchRun times one run of Benchmark after the depth positions of base.
func (e *Engine) benchRun(j *submission, base *kvcache.Cache, depth int, prompt, gen []int32) (prefill, decode time.Duration, err error) {
	c := e.kv.Arena().NewCache()
	defer e.kv.Drop(c)
	n := depth + len(prompt) + len(gen)
	if !e.kv.Clone(c, base) || !e.kv.Grow(c, n) {
		return 0, 0, e.noRoom(n)
	}
	start := time.Now()
	if err := e.benchPrompt(j, c, prompt, depth); err != nil {
		return 0, 0, err
	}
	prefill = time.Since(start)
	start = time.Now()
	out := []int{0}
	for i := range gen {
		if err := e.stopCause(j); err != nil {
			return 0, 0, err
		}
		if _, err := e.forward(c, gen[i:i+1], depth+len(prompt)+i, out); err != nil {
			return 0, 0, err
		}
	}
	return prefill, time.Since(start), nil
}

// benchPrompt computes the tokens of prompt at positions from pos on, in
// chunks, the logits of each chunk's last row included.
func (e *Engine) benchPrompt(j *submission, c *kvcache.Cache, prompt []int32, pos int) error {
	out := []int{0}
	for i := 0; i < len(prompt); i += e.state.MaxRows() {
		if err := e.stopCause(j); err != nil {
			return err
		}
		toks := prompt[i:min(i+e.state.MaxRows(), len(prompt))]
		out[0] = len(toks) - 1
		if _, err := e.forward(c, toks, pos+i, out); err != nil {
			return err
		}
	}
	return nil
}

// DecodeWeightBytes returns the weight bytes one decode step reads: every
// matrix of the layers and the output matrix, in the form the kernels read
// (their packed copy when they made one), not the embedding rows looked up;
// of a mixture, the share of its experts one token is routed to.
func (e *Engine) DecodeWeightBytes() int64 {
	n := matrixBytes(e.model.Output)
	for _, l := range e.model.Layers {
		for _, w := range l.Matrices() {
			n += matrixBytes(w)
		}
		if l.MoE != nil {
			var ex int64
			for _, w := range l.MoE.Matrices(nil) {
				ex += matrixBytes(w)
			}
			n += ex / int64(len(l.MoE.Experts)) * int64(e.model.Config.MoE.TopK)
		}
	}
	return n
}

// matrixBytes returns the bytes the kernels read of w, 0 for none.
func matrixBytes(w *kernels.Matrix) int64 {
	if w == nil {
		return 0
	}
	if w.Packed() {
		return int64(w.PackedBytes())
	}
	return int64(len(w.Data) + len(w.Scales) + len(w.Biases))
}

// ReadBandwidth measures how many bytes per second threads goroutines read
// from a buffer of size bytes (make it much larger than the CPU's caches),
// each streaming through its own part with the vector kernels. It returns
// the best of several passes: at least five, for at least half a second.
func ReadBandwidth(ctx context.Context, threads, size int) (float64, error) {
	const chunk = 16 << 10 // floats per kernel call
	if threads < 1 || size < threads*chunk*4 {
		return 0, fmt.Errorf("%w: a read test of %d bytes on %d threads", ErrInvalidRequest, size, threads)
	}
	buf := make([]float32, size/4)
	for i := range buf {
		buf[i] = float32(i & 7)
	}
	per := len(buf) / threads / chunk * chunk
	sums := make([]float32, threads)
	best := time.Duration(1 << 62)
	for passes, start := 0, time.Now(); passes < 5 || time.Since(start) < time.Second/2; passes++ {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		var wg sync.WaitGroup
		t0 := time.Now()
		for t := range threads {
			wg.Go(func() {
				part := buf[t*per : (t+1)*per]
				for off := 0; off < len(part); off += chunk {
					sums[t] += kernels.Dot(part[off:off+chunk], part[off:off+chunk])
				}
			})
		}
		wg.Wait()
		best = min(best, time.Since(t0))
	}
	return float64(threads*per*4) / best.Seconds(), nil
}
