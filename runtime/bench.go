package runtime

import (
	"context"
	"fmt"
	"time"
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
