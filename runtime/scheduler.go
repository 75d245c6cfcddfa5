package runtime

import (
	"context"
	goruntime "runtime"
	"slices"
	"time"
)

// loop is the scheduler goroutine: the only one that touches the model, the
// KV cache and the forward state. Each turn takes in new requests, drops
// the cancelled ones, admits waiting ones while fewer than Parallel
// sequences run, and runs one step of the running set.
func (e *Engine) loop() {
	defer close(e.done)
	for {
		if len(e.running) == 0 && len(e.waiting) == 0 {
			e.publishStats()
			select {
			case <-e.quit:
				e.shutdown()
				return
			case j := <-e.queue:
				e.waiting = append(e.waiting, j)
			}
		}
		if isClosed(e.quit) {
			e.shutdown()
			return
		}
		e.receive()
		e.reap()
		e.admit()
		if len(e.running) > 0 {
			e.step()
			// Let the callers woken by this step's events run on this
			// thread now: the compute workers keep the other threads
			// busy between operations, so a woken caller queued here
			// would otherwise wait for the scheduler to block.
			goruntime.Gosched()
		}
		e.publishStats()
	}
}

// receive moves the requests sent since the last turn to the waiting list.
func (e *Engine) receive() {
	for {
		select {
		case j := <-e.queue:
			e.waiting = append(e.waiting, j)
		default:
			return
		}
	}
}

// reap ends the waiting and running requests whose context is done.
func (e *Engine) reap() {
	e.waiting = slices.DeleteFunc(e.waiting, func(j *submission) bool {
		err := context.Cause(j.ctx)
		if err == nil {
			return false
		}
		e.finish(j, cancelledResult(j), err)
		return true
	})
	for _, r := range slices.Clone(e.running) {
		if err := context.Cause(r.j.ctx); err != nil {
			r.res.Finish = FinishCancelled
			e.end(r, err)
		}
	}
}

// admit starts waiting requests in order while fewer than Parallel
// sequences run. Work that needs the model alone waits, and holds back
// those behind it, until no sequence runs.
func (e *Engine) admit() {
	for len(e.waiting) > 0 {
		j := e.waiting[0]
		if j.exec != nil {
			if len(e.running) > 0 {
				return
			}
			e.waiting = e.waiting[1:]
			e.finish(j, Result{StopToken: -1}, j.exec(j))
			continue
		}
		if len(e.running) >= e.opt.Parallel {
			return
		}
		e.waiting = e.waiting[1:]
		r := j.run
		if r == nil {
			var err error
			if r, err = e.newRunningSeq(j); err != nil {
				e.finish(j, r.res, err)
				continue
			}
		}
		j.run = nil
		e.running = append(e.running, r)
		slices.SortFunc(e.running, func(a, b *runningSeq) int { return int(a.order - b.order) })
	}
}

// preempt takes a running sequence back to the front of the queue to free
// its cache blocks; it resumes later by computing its tokens again, past
// what the prefix cache still holds.
func (e *Engine) preempt(r *runningSeq) {
	e.kv.Release(r.kv, r.tokens, r.done)
	r.done, r.started = 0, false
	e.remove(r)
	r.j.run = r
	e.waiting = append([]*submission{r.j}, e.waiting...)
	e.stats.preemptions.Add(1)
}

// remove takes r off the running set.
func (e *Engine) remove(r *runningSeq) {
	e.running = slices.DeleteFunc(e.running, func(x *runningSeq) bool { return x == r })
	if e.prefill == r {
		e.prefill = nil
	}
}

// shutdown fails everything at Close: running sequences end cancelled,
// waiting requests with ErrClosed.
func (e *Engine) shutdown() {
	for _, r := range slices.Clone(e.running) {
		r.res.Finish = FinishCancelled
		e.end(r, ErrClosed)
	}
	e.receive()
	for _, j := range e.waiting {
		e.finish(j, cancelledResult(j), ErrClosed)
	}
	e.waiting = nil
	e.publishStats()
}

// cancelledResult is the result of a waiting submission that ends cancelled.
func cancelledResult(j *submission) Result {
	if j.run != nil {
		res := j.run.res
		res.Finish = FinishCancelled
		return res
	}
	return Result{Finish: FinishCancelled, StopToken: -1, Timings: Timings{Queue: time.Since(j.enqueued)}}
}

// stopCause returns why a submission must stop now: its context's cause, or
// ErrClosed once Close was called; nil to go on.
func (e *Engine) stopCause(j *submission) error {
	if err := context.Cause(j.ctx); err != nil {
		return err
	}
	if isClosed(e.quit) {
		return ErrClosed
	}
	return nil
}
