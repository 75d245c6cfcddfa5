package runtime

import (
	"context"
	"fmt"
	"time"
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
	j := newJob(ctx)
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

// validate checks what can be checked before queueing.
func (e *Engine) validate(req *Request) error {
	n, ctxLen := len(req.Prompt), e.opt.Ctx
	if n == 0 {
		return fmt.Errorf("%w: the prompt is empty", ErrInvalidRequest)
	}
	if n >= ctxLen {
		return fmt.Errorf("%w: the prompt has %d tokens and the context holds %d (at least one must remain for the answer)", ErrContextLength, n, ctxLen)
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
	return nil
}

// runGenerate is the scheduler's side of Generate.
func (e *Engine) runGenerate(j *job) (Result, error) {
	req := j.req
	res := Result{StopToken: -1, Usage: Usage{Prompt: len(req.Prompt)}}
	seq, err := e.newSequence(req)
	if err != nil {
		return res, fmt.Errorf("%w: %w", ErrInvalidRequest, err)
	}
	budget, err := req.Params.Budget(len(req.Prompt), e.opt.Ctx)
	if err != nil {
		return res, fmt.Errorf("%w: %w", ErrContextLength, err)
	}
	start := time.Now()
	logits, cached, err := e.prefill(j, req.Prompt)
	res.Usage.Cached = cached
	res.Timings.Prefill, res.Timings.PrefillTokens = time.Since(start), len(req.Prompt)-cached
	if err != nil {
		res.Finish = FinishCancelled
		return res, err
	}
	pos := len(req.Prompt)
	decodeStart := time.Now()
	for {
		ev, done, err := seq.step(logits, &res)
		if err != nil {
			return res, err
		}
		if res.Usage.Completion == 1 {
			res.Timings.TTFT, decodeStart = time.Since(j.called), time.Now()
		}
		if !done && res.Usage.Completion >= budget {
			res.Finish, done = FinishLength, true
		}
		if done {
			seq.flush(&ev, &res)
		}
		if len(ev.Tokens) > 0 || ev.Text != "" {
			j.push(ev)
		}
		if done {
			break
		}
		if err := e.stopCause(j); err != nil {
			res.Finish = FinishCancelled
			return res, err
		}
		e.tok1[0] = ev.Tokens[0]
		if logits, err = e.forward(e.tok1[:], pos, e.out1[:]); err != nil {
			return res, err
		}
		pos++
		res.Timings.DecodeTokens++
	}
	res.Timings.Decode = time.Since(decodeStart)
	return res, nil
}

// prefill computes the prompt after the longest prefix already in the
// cache, and returns the logits of its last token and how many tokens were
// reused.
func (e *Engine) prefill(j *job, prompt []int32) ([]float32, int, error) {
	cached := commonPrefix(e.cached, prompt)
	if cached == len(prompt) {
		cached-- // the last token is computed again for its logits
	}
	e.cached = e.cached[:cached]
	logits, err := e.computeChunks(j, prompt, cached)
	return logits, cached, err
}

// computeChunks computes tokens[from:] at their positions, in chunks of
// the state's batch size, checking for cancellation between chunks, and
// returns the logits of the last token. tokens[:from] must be in the cache.
func (e *Engine) computeChunks(j *job, tokens []int32, from int) ([]float32, error) {
	var logits []float32
	chunk := e.state.MaxRows()
	defer func() { e.out1[0] = 0 }()
	for pos := from; pos < len(tokens); pos += chunk {
		if err := e.stopCause(j); err != nil {
			return nil, err
		}
		toks := tokens[pos:min(pos+chunk, len(tokens))]
		e.out1[0] = len(toks) - 1
		var err error
		if logits, err = e.forward(toks, pos, e.out1[:]); err != nil {
			return nil, err
		}
	}
	return logits, nil
}

func commonPrefix(a, b []int32) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
