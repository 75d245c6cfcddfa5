package runtime

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mlxrun/mlx/runtime/kernels"
)

// Benchmark times the model alone, as llama-bench does: prompt is computed
// in chunks from an empty cache, then every token of gen is computed on its
// own after it (one decode step each, logits included, no sampling). Either
// may be empty. It returns the time each phase took.
func (e *Engine) Benchmark(ctx context.Context, prompt, gen []int32) (prefill, decode time.Duration, err error) {
	n := len(prompt) + len(gen)
	if n == 0 || n > e.opt.Ctx {
		return 0, 0, fmt.Errorf("%w: %d tokens in a context of %d", ErrContextLength, n, e.opt.Ctx)
	}
	if err := e.fits(n); err != nil {
		return 0, 0, err
	}
	for _, list := range [][]int32{prompt, gen} {
		for _, id := range list {
			if id < 0 || int(id) >= e.cfg.VocabSize {
				return 0, 0, fmt.Errorf("%w: token id %d outside the vocabulary of %d", ErrInvalidRequest, id, e.cfg.VocabSize)
			}
		}
	}
	err = e.runExclusive(ctx, func(j *job) error {
		c := e.kv.Arena().NewCache()
		defer e.kv.Drop(c)
		if !e.kv.Grow(c, n) {
			return e.noRoom(n)
		}
		out := []int{0}
		start := time.Now()
		for pos := 0; pos < len(prompt); pos += e.state.MaxRows() {
			if err := e.stopCause(j); err != nil {
				return err
			}
			toks := prompt[pos:min(pos+e.state.MaxRows(), len(prompt))]
			out[0] = len(toks) - 1
			if _, err := e.forward(c, toks, pos, out); err != nil {
				return err
			}
		}
		prefill = time.Since(start)
		start = time.Now()
		out[0] = 0
		for i := range gen {
			if err := e.stopCause(j); err != nil {
				return err
			}
			if _, err := e.forward(c, gen[i:i+1], len(prompt)+i, out); err != nil {
				return err
			}
		}
		decode = time.Since(start)
		return nil
	})
	return prefill, decode, err
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
