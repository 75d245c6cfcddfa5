package runtime

import (
	"context"
	"fmt"
)

// Score runs tokens through the model as one prompt and calls fn(i, logits)
// for every i ≥ from with the raw logits that follow tokens[:i+1], in order.
// logits is valid only during the call. It is how the model's distribution
// at every step of a known continuation is measured (teacher forcing). The
// keys and values of a prefix that the previous request left in the cache
// are reused up to from, so scoring a sequence one token longer each time
// computes one token per call, as decoding does. An error from fn or the
// end of ctx stops it.
func (e *Engine) Score(ctx context.Context, tokens []int32, from int, fn func(i int, logits []float32) error) error {
	if len(tokens) == 0 || len(tokens) > e.opt.Ctx {
		return fmt.Errorf("%w: %d tokens to score in a context of %d", ErrContextLength, len(tokens), e.opt.Ctx)
	}
	if from < 0 || from >= len(tokens) {
		return fmt.Errorf("%w: first scored position %d outside %d tokens", ErrInvalidRequest, from, len(tokens))
	}
	return e.runExclusive(ctx, func(j *job) error { return e.score(j, tokens, from, fn) })
}

// score is the scheduler's side of Score: chunks of up to a batch of rows,
// each with at most the state's MaxOut rows of logits.
func (e *Engine) score(j *job, tokens []int32, from int, fn func(i int, logits []float32) error) error {
	vocab := e.cfg.VocabSize
	var out []int
	pos := min(commonPrefix(e.cached, tokens), from)
	e.cached = e.cached[:pos]
	for pos < len(tokens) {
		if err := e.stopCause(j); err != nil {
			return err
		}
		n := min(e.state.MaxRows(), len(tokens)-pos)
		if pos+n > from {
			n = min(n, max(from-pos, 0)+e.state.MaxOut())
		}
		out = out[:0]
		for i := max(from-pos, 0); i < n; i++ {
			out = append(out, i)
		}
		if len(out) == 0 {
			out = append(out, n-1)
		}
		logits, err := e.forward(tokens[pos:pos+n], pos, out)
		if err != nil {
			return err
		}
		for k, r := range out {
			if pos+r < from {
				continue
			}
			if err := fn(pos+r, logits[k*vocab:(k+1)*vocab]); err != nil {
				return err
			}
		}
		pos += n
	}
	return nil
}
