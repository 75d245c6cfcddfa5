package runtime

import (
	"context"
	"fmt"

	"github.com/mlxrun/mlx/runtime/kvcache"
)

// Score runs tokens through the model as one prompt and calls fn(i, logits)
// for every i ≥ from with the raw logits that follow tokens[:i+1], in order.
// logits is valid only during the call. It is how the model's distribution
// at every step of a known continuation is measured (teacher forcing). The
// keys and values of a prefix that the prefix cache holds are reused up to
// from, so scoring a sequence one token longer each time computes one
// token per call, as decoding does. An error from fn or the end of ctx
// stops it. Score waits until no sequence runs, and runs alone.
func (e *Engine) Score(ctx context.Context, tokens []int32, from int, fn func(i int, logits []float32) error) error {
	if len(tokens) == 0 || len(tokens) > e.opt.Ctx {
		return fmt.Errorf("%w: %d tokens to score in a context of %d", ErrContextLength, len(tokens), e.opt.Ctx)
	}
	if from < 0 || from >= len(tokens) {
		return fmt.Errorf("%w: first scored position %d outside %d tokens", ErrInvalidRequest, from, len(tokens))
	}
	if err := e.fits(len(tokens)); err != nil {
		return err
	}
	return e.runExclusive(ctx, func(j *submission) error { return e.score(j, tokens, from, fn) })
}

// score is the scheduler's side of Score: chunks of up to a batch of rows,
// each with at most the state's MaxOut rows of logits.
func (e *Engine) score(j *submission, tokens []int32, from int, fn func(i int, logits []float32) error) error {
	vocab := e.cfg.VocabSize
	c := e.kv.Arena().NewCache()
	pos := e.kv.Match(c, tokens, from)
	defer func() { e.kv.Release(c, tokens, pos) }()
	if !e.kv.Grow(c, len(tokens)) {
		return e.noRoom(len(tokens))
	}
	var out []int
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
		logits, err := e.forward(c, tokens[pos:pos+n], pos, out)
		if err != nil {
			return err
		}
		pos += n
		for k, r := range out {
			if pos-n+r < from {
				continue
			}
			if err := fn(pos-n+r, logits[k*vocab:(k+1)*vocab]); err != nil {
				return err
			}
		}
	}
	return nil
}

// forward runs tokens at positions from pos on through the model into
// cache c alone and returns the logits of the rows in out (indices into
// tokens).
func (e *Engine) forward(c *kvcache.Cache, tokens []int32, pos int, out []int) ([]float32, error) {
	b := &e.batch
	b.Tokens, b.Pos, b.Cache = append(b.Tokens[:0], tokens...), b.Pos[:0], b.Cache[:0]
	for i := range tokens {
		b.Pos = append(b.Pos, pos+i)
		b.Cache = append(b.Cache, c)
	}
	b.Out = append(b.Out[:0], out...)
	logits, err := e.state.Forward(b)
	if err != nil {
		return nil, fmt.Errorf("forward pass: %w", err)
	}
	return logits, nil
}
