package runtime

import (
	"context"
	"sync/atomic"
)

// Reservation is a place among the Parallel+Queue requests an engine
// holds, taken before a request is prepared: a server that reserves before
// it answers refuses a full queue with a status, never inside a stream
// that another request's arrival made too late.
type Reservation struct {
	e    *Engine
	used atomic.Bool // taken by a request, or given back
}

// Reserve takes a place now, waiting up to QueueTimeout for one as
// Generate does; it fails with an error wrapping ErrBusy when none frees.
// The place goes to the first request started with a context carrying it
// (WithReservation); Release gives it back if no request took it.
func (e *Engine) Reserve(ctx context.Context) (*Reservation, error) {
	if isClosed(e.quit) {
		return nil, ErrClosed
	}
	if err := e.takePlace(ctx); err != nil {
		return nil, err
	}
	return &Reservation{e: e}, nil
}

// Release gives the place back unless a request took it. It may be called
// more than once, and on nil.
func (r *Reservation) Release() {
	if r != nil && r.used.CompareAndSwap(false, true) {
		<-r.e.admission
	}
}

// claim takes the reservation's place for a request of e; false when it
// is of another engine, already taken or released.
func (r *Reservation) claim(e *Engine) bool {
	return r != nil && r.e == e && r.used.CompareAndSwap(false, true)
}

type reservationKey struct{}

// WithReservation returns ctx carrying r: the first request of r's engine
// whose context derives from it (Generate, scoring) takes r's place instead
// of a new one. A nil r returns ctx.
func WithReservation(ctx context.Context, r *Reservation) context.Context {
	if r == nil {
		return ctx
	}
	return context.WithValue(ctx, reservationKey{}, r)
}

// reserved takes the place of the reservation ctx carries for e, if any.
func (e *Engine) reserved(ctx context.Context) bool {
	r, _ := ctx.Value(reservationKey{}).(*Reservation)
	return r.claim(e)
}
