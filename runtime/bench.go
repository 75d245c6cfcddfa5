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
	if n := len(prompt) + len(gen); n == 0 || n > e.opt.Ctx {
		return 0, 0, fmt.Errorf("%w: %d tokens in a context of %d", ErrContextLength, n, e.opt.Ctx)
	}
	for _, list := range [][]int32{prompt, gen} {
		for _, id := range list {
			if id < 0 || int(id) >= e.cfg.VocabSize {
				return 0, 0, fmt.Errorf("%w: token id %d outside the vocabulary of %d", ErrInvalidRequest, id, e.cfg.VocabSize)
			}
		}
	}
	err = e.runExclusive(ctx, func(j *job) error {
		e.cached = e.cached[:0]
		start := time.Now()
		if _, err := e.computeChunks(j, prompt, 0); err != nil {
			return err
		}
		prefill = time.Since(start)
		start = time.Now()
		for i, id := range gen {
			if err := e.stopCause(j); err != nil {
				return err
			}
			e.tok1[0] = id
			if _, err := e.forward(e.tok1[:], len(prompt)+i, e.out1[:]); err != nil {
				return err
			}
		}
		decode = time.Since(start)
		return nil
	})
	return prefill, decode, err
}
