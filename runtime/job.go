package runtime

import (
	"context"
	"sync"
	"time"
)

// job is one queued request: a generation, or, when exec is set, work that
// needs the model to itself (scoring, benchmarks), which exec does on the
// scheduler goroutine. The scheduler fills events and, at the end, result
// and err; the caller's goroutine drains the events.
type job struct {
	ctx      context.Context
	cancel   context.CancelCauseFunc
	req      *Request
	exec     func(j *job) error
	called   time.Time
	enqueued time.Time

	mu     sync.Mutex
	events []Event
	notify chan struct{} // cap 1: events were added
	done   chan struct{} // closed when the scheduler is finished with the job
	result Result
	err    error
}

func newJob(ctx context.Context) *job {
	j := &job{called: time.Now(), notify: make(chan struct{}, 1), done: make(chan struct{})}
	j.ctx, j.cancel = context.WithCancelCause(ctx)
	return j
}

// push hands an event to the caller's goroutine.
func (j *job) push(ev Event) {
	j.mu.Lock()
	j.events = append(j.events, ev)
	j.mu.Unlock()
	select {
	case j.notify <- struct{}{}:
	default:
	}
}

// take returns the events pushed since the last call.
func (j *job) take(buf []Event) []Event {
	j.mu.Lock()
	defer j.mu.Unlock()
	buf = append(buf[:0], j.events...)
	clear(j.events)
	j.events = j.events[:0]
	return buf
}

// finish records the outcome and releases the caller.
func (j *job) finish(res Result, err error) {
	j.result, j.err = res, err
	close(j.done)
}

// enqueue places j in the queue, waiting up to QueueTimeout for room.
func (e *Engine) enqueue(j *job) error {
	select {
	case <-e.quit:
		return ErrClosed
	default:
	}
	j.enqueued = time.Now()
	select {
	case e.queue <- j:
		return nil
	default:
	}
	t := time.NewTimer(e.opt.QueueTimeout)
	defer t.Stop()
	select {
	case e.queue <- j:
		return nil
	case <-e.quit:
		return ErrClosed
	case <-j.ctx.Done():
		return context.Cause(j.ctx)
	case <-t.C:
		return busyError(e.opt.Queue, e.opt.QueueTimeout)
	}
}

// runExclusive queues fn to run on the scheduler goroutine and waits for it.
func (e *Engine) runExclusive(ctx context.Context, fn func(j *job) error) error {
	j := newJob(ctx)
	defer j.cancel(nil)
	j.exec = fn
	if err := e.enqueue(j); err != nil {
		return err
	}
	<-j.done
	return j.err
}
