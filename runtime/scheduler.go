package runtime

import (
	"context"
	"fmt"
	"time"
)

// loop is the scheduler goroutine: the only one that touches the model, the
// KV cache and the forward state.
func (e *Engine) loop() {
	defer close(e.done)
	for {
		select {
		case <-e.quit:
			e.drain()
			return
		case j := <-e.queue:
			e.run(j)
		}
	}
}

// drain fails the jobs still queued at Close.
func (e *Engine) drain() {
	for {
		select {
		case j := <-e.queue:
			j.finish(Result{Finish: FinishCancelled, StopToken: -1}, ErrClosed)
		default:
			return
		}
	}
}

func (e *Engine) run(j *job) {
	queued := time.Since(j.enqueued)
	if err := context.Cause(j.ctx); err != nil {
		j.finish(Result{Finish: FinishCancelled, StopToken: -1, Timings: Timings{Queue: queued}}, err)
		return
	}
	if j.exec != nil {
		j.finish(Result{StopToken: -1}, j.exec(j))
		return
	}
	res, err := e.runGenerate(j)
	res.Timings.Queue = queued
	j.finish(res, err)
}

// forward runs tokens at positions from pos on through the model into the
// engine's cache and returns the logits of the rows in out (indices into
// tokens).
func (e *Engine) forward(tokens []int32, pos int, out []int) ([]float32, error) {
	b := &e.batch
	b.Tokens = tokens
	b.Pos, b.Cache = b.Pos[:0], b.Cache[:0]
	for i := range tokens {
		b.Pos = append(b.Pos, pos+i)
		b.Cache = append(b.Cache, e.cache)
	}
	b.Out = out
	e.cached = append(e.cached[:pos], tokens...)
	logits, err := e.state.Forward(b)
	if err != nil {
		e.cached = e.cached[:pos]
		return nil, fmt.Errorf("forward pass: %w", err)
	}
	return logits, nil
}

// stopCause returns why a job must stop now: its context's cause, or
// ErrClosed once Close was called; nil to go on.
func (e *Engine) stopCause(j *job) error {
	if err := context.Cause(j.ctx); err != nil {
		return err
	}
	if isClosed(e.quit) {
		return ErrClosed
	}
	return nil
}

func busyError(queue int, wait time.Duration) error {
	return fmt.Errorf("%w: %d requests already wait and none finished within %v; retry later or raise the queue size", ErrBusy, queue, wait)
}
