package runtime

import (
	"context"
	"fmt"
)

// Generate runs one request and streams it: emit receives every event, in
// order, on the calling goroutine. It returns when the sequence ends. When
// ctx is done or emit returns an error, the sequence stops within one
// step; Generate then returns a Result with FinishCancelled and that error
// (the cause of ctx, or emit's error).
//
// A prompt that leaves no room in the context fails with ErrContextLength;
// bad parameters fail with ErrInvalidRequest (and sample.ErrInvalid). emit
// must not wait for another request of the same engine, which would queue
// behind this one.
func (e *Engine) Generate(ctx context.Context, req Request, emit func(Event) error) (Result, error) {
	if err := e.validate(&req); err != nil {
		return Result{StopToken: -1}, err
	}
	j := newSubmission(ctx)
	defer j.cancel(nil)
	j.req = &req
	if err := e.enqueue(j); err != nil {
		return Result{Finish: FinishCancelled, StopToken: -1}, err
	}
	var buf []Event
	var emitErr error
	dropped := false
	for {
		select {
		case <-j.notify:
		case <-j.done:
		}
		finished := isClosed(j.done)
		buf = j.take(buf)
		for _, ev := range buf {
			if j.ctx.Err() != nil {
				dropped = true // cancelled: nothing more is emitted
				break
			}
			if err := emit(ev); err != nil {
				emitErr = err
				j.cancel(err)
			}
		}
		if finished {
			break
		}
	}
	res, err := j.result, j.err
	switch {
	case emitErr != nil:
		res.Finish, err = FinishCancelled, emitErr
	case dropped && err == nil:
		res.Finish, err = FinishCancelled, context.Cause(j.ctx)
	}
	return res, err
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// fits checks that n positions fit in the KV cache.
func (e *Engine) fits(n int) error {
	if room := e.kv.Total() * BlockSize; n > room {
		return fmt.Errorf("%w: %d tokens need %d KV cache blocks of %d positions, and the cache holds %d (%d positions); raise the KV cache memory",
			ErrContextLength, n, (n+BlockSize-1)/BlockSize, BlockSize, e.kv.Total(), room)
	}
	return nil
}

// noRoom is the error of n positions that found no cache blocks, which
// fits should have prevented.
func (e *Engine) noRoom(n int) error {
	return fmt.Errorf("%w: no KV cache blocks left for %d positions", ErrContextLength, n)
}

// validate checks what can be checked before queueing.
func (e *Engine) validate(req *Request) error {
	n, ctxLen := len(req.Prompt), e.opt.Ctx
	if e.model.Bidirectional() {
		return fmt.Errorf("%w: %s is an encoder: it embeds text, it does not generate", ErrInvalidRequest, e.cfg.Arch)
	}
	if n == 0 {
		return fmt.Errorf("%w: the prompt is empty", ErrInvalidRequest)
	}
	if n >= ctxLen {
		return fmt.Errorf("%w: the prompt has %d tokens and the context holds %d (at least one must remain for the answer)", ErrContextLength, n, ctxLen)
	}
	if err := e.fits(n); err != nil {
		return err
	}
	vocab := e.cfg.VocabSize
	for i, id := range req.Prompt {
		if id < 0 || int(id) >= vocab {
			return fmt.Errorf("%w: prompt token %d is id %d, outside the vocabulary of %d", ErrInvalidRequest, i, id, vocab)
		}
	}
	if err := req.Params.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidRequest, err)
	}
	return e.checkSpec(req.Spec)
}
