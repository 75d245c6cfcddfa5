package server

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/mlxrun/mlx/runtime"
)

// seqHandler receives the streams of a request's sequences. Its calls are
// serialized across sequences, and each sequence's events come in order.
type seqHandler interface {
	// event gets an event of sequence i.
	event(i int, ev runtime.Event) error
	// end gets the result of sequence i; err is a generation error (not
	// one that event returned). An error returned stops the request.
	end(i int, res runtime.Result, err error) error
}

// runner runs the sequences of one request on a model.
type runner struct {
	srv      *Server
	model    Model
	name     string // model id, the metrics label
	start    time.Time
	parallel int
}

// run generates reqs, at most r.parallel at a time, and streams them to
// h. It returns the first error of h, or ctx's cause.
func (r *runner) run(ctx context.Context, reqs []runtime.Request, h seqHandler) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var mu sync.Mutex // serializes h
	var first error
	fail := func(err error) {
		if first == nil {
			first = err
			cancel(err)
		}
	}
	one := func(i int) {
		r.srv.wg.Add(1)
		defer r.srv.wg.Done()
		r.sequence(ctx, i, reqs[i], &mu, h, fail)
	}
	par := max(r.parallel, 1)
	if par == 1 || len(reqs) == 1 {
		for i := range reqs {
			if ctx.Err() != nil {
				break
			}
			one(i)
		}
	} else {
		sem := make(chan struct{}, par)
		var wg sync.WaitGroup
		for i := range reqs {
			sem <- struct{}{}
			wg.Add(1)
			go func() {
				defer func() { <-sem; wg.Done() }()
				one(i)
			}()
		}
		wg.Wait()
	}
	mu.Lock()
	defer mu.Unlock()
	if first != nil {
		return first
	}
	return context.Cause(ctx)
}

// sequence runs one sequence and records its metrics.
func (r *runner) sequence(ctx context.Context, i int, req runtime.Request, mu *sync.Mutex, h seqHandler, fail func(error)) {
	obs := r.srv.obs
	obs.waiting.Add(1)
	started, last := false, time.Time{}
	var handlerErr error
	emit := func(ev runtime.Event) error {
		now := time.Now()
		if !started {
			started = true
			obs.waiting.Add(-1)
			obs.running.Add(1)
			obs.ttft.Observe(now.Sub(r.start).Seconds(), r.name)
		} else if len(ev.Tokens) > 0 {
			obs.itl.Observe(now.Sub(last).Seconds()/float64(len(ev.Tokens)), r.name)
		}
		last = now
		obs.genToks.Add(float64(len(ev.Tokens)), r.name)
		mu.Lock()
		defer mu.Unlock()
		if err := h.event(i, ev); err != nil {
			handlerErr = err
			fail(err)
			return err
		}
		return nil
	}
	res, err := r.model.Generate(ctx, req, emit)
	if started {
		obs.running.Add(-1)
	} else {
		obs.waiting.Add(-1)
	}
	obs.promptToks.Add(float64(res.Usage.Prompt), r.name)
	mu.Lock()
	defer mu.Unlock()
	if handlerErr != nil || (err != nil && errors.Is(err, context.Cause(ctx)) && ctx.Err() != nil) {
		if handlerErr == nil {
			fail(context.Cause(ctx))
		}
		return // cancelled: the cause is already recorded
	}
	if e := h.end(i, res, err); e != nil {
		fail(e)
	}
}
