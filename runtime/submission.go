package runtime

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// submission is one request handed to the scheduler: a generation, or,
// when exec is set, work that needs the model to itself (scoring,
// benchmarks), which exec does on the scheduler goroutine once no sequence
// runs. The scheduler fills events and, at the end, result and err; the
// caller's goroutine drains the events.
type submission struct {
	ctx      context.Context
	cancel   context.CancelCauseFunc
	req      *Request
	exec     func(j *submission) error
	called   time.Time
	enqueued time.Time
	run      *runningSeq // a sequence put back in the queue to free cache blocks

	mu     sync.Mutex
	events []Event
	notify chan struct{} // cap 1: events were added
	done   chan struct{} // closed when the scheduler is finished with it
	result Result
	err    error
}

func newSubmission(ctx context.Context) *submission {
	j := &submission{called: time.Now(), notify: make(chan struct{}, 1), done: make(chan struct{})}
	j.ctx, j.cancel = context.WithCancelCause(ctx)
	return j
}

// push hands an event to the caller's goroutine.
func (j *submission) push(ev Event) {
	j.mu.Lock()
	j.events = append(j.events, ev)
	j.mu.Unlock()
	select {
	case j.notify <- struct{}{}:
	default:
	}
}

// take returns the events pushed since the last call.
func (j *submission) take(buf []Event) []Event {
	j.mu.Lock()
	defer j.mu.Unlock()
	buf = append(buf[:0], j.events...)
	clear(j.events)
	j.events = j.events[:0]
	return buf
}

// finish records the outcome of a queued submission, gives its place in the queue
// back and releases the caller.
func (e *Engine) finish(j *submission, res Result, err error) {
	j.result, j.err = res, err
	<-e.admission
	close(j.done)
}

// enqueue takes a place for j among the Parallel+Queue requests the engine
// holds, waiting up to QueueTimeout for one, and hands j to the scheduler.
func (e *Engine) enqueue(j *submission) error {
	if isClosed(e.quit) {
		return ErrClosed
	}
	j.enqueued = time.Now()
	if err := e.takePlace(j.ctx); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		<-e.admission
		return ErrClosed
	}
	e.queue <- j // never blocks: a place is held
	return nil
}

// takePlace takes the place reserved for ctx, or a new one.
func (e *Engine) takePlace(ctx context.Context) error {
	if e.reserved(ctx) {
		return nil
	}
	select {
	case e.admission <- struct{}{}:
		return nil
	default:
	}
	if e.opt.QueueTimeout <= 0 {
		return e.busyError()
	}
	t := time.NewTimer(e.opt.QueueTimeout)
	defer t.Stop()
	select {
	case e.admission <- struct{}{}:
		return nil
	case <-e.quit:
		return ErrClosed
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return e.busyError()
	}
}

func (e *Engine) busyError() error {
	return fmt.Errorf("%w: %d requests already run or wait (%d running and a queue of %d); retry later or raise the queue size",
		ErrBusy, cap(e.admission), e.opt.Parallel, e.opt.Queue)
}

// Busy returns an error wrapping ErrBusy, with the numbers, when a request
// would now find the queue full; nil when it would find room.
func (e *Engine) Busy() error {
	if len(e.admission) >= cap(e.admission) {
		return e.busyError()
	}
	return nil
}

// runExclusive queues fn to run on the scheduler goroutine, alone, and
// waits for it.
func (e *Engine) runExclusive(ctx context.Context, fn func(j *submission) error) error {
	j := newSubmission(ctx)
	defer j.cancel(nil)
	j.exec = fn
	if err := e.enqueue(j); err != nil {
		return err
	}
	<-j.done
	return j.err
}
