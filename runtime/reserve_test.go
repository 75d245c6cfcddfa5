package runtime

import (
	"context"
	"errors"
	"testing"
)

// TestReserve fills a queue with reservations: a request without one is
// refused, a request carrying one runs in its place, and a reservation no
// request took frees its place when released.
func TestReserve(t *testing.T) {
	e := loadWith(t, Options{Parallel: 1, Queue: 1}, "gguf", "llama-tiny-Q8_0.gguf")
	ctx := context.Background()
	a, err := e.Reserve(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.Reserve(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Reserve(ctx); !errors.Is(err, ErrBusy) || e.Busy() == nil {
		t.Errorf("a third reservation: %v, busy %v; want ErrBusy", err, e.Busy())
	}
	req := Request{Prompt: promptOf(4, 1), Params: greedy(2)}
	none := func(Event) error { return nil }
	if _, err := e.Generate(ctx, req, none); !errors.Is(err, ErrBusy) {
		t.Errorf("a request without a reservation: %v, want ErrBusy", err)
	}
	if res, err := e.Generate(WithReservation(ctx, a), req, none); err != nil || res.Usage.Completion == 0 {
		t.Errorf("a request in a reserved place: %+v, %v", res, err)
	}
	a.Release() // taken by the request: nothing to give back
	if e.Busy() != nil {
		t.Errorf("after the reserved request ended: %v", e.Busy())
	}
	if _, err := e.Reserve(ctx); err != nil {
		t.Errorf("the place the request left: %v", err)
	}
	b.Release()
	b.Release()
	if _, err := e.Reserve(ctx); err != nil {
		t.Errorf("the place released: %v", err)
	}
	if e.Busy() == nil {
		t.Error("two places reserved, and the queue reports room")
	}
}
