package runtime

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/mlxrun/mlx/runtime/kvcache"
)

// TestCancellation stops a generation from emit and from the context, and
// checks that it ends within one step and that the engine then serves the
// same request again from scratch.
func TestCancellation(t *testing.T) {
	e := loadEngine(t, kvcache.F16, "gguf", "llama-tiny-F32.gguf")
	c := readReference(t, "llama-tiny-F32.json", "f32kv-nofa")[1]
	errStop := errors.New("client went away")
	tests := []struct {
		name    string
		emitErr bool
		wantErr error
	}{
		{"emit error", true, errStop},
		{"context cancelled", false, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			emitted := 0
			res, err := e.Generate(ctx, Request{Prompt: c.PromptIDs, Params: greedy(200)}, func(Event) error {
				emitted++
				if emitted < 3 {
					return nil
				}
				if tt.emitErr {
					return errStop
				}
				cancel()
				return nil
			})
			if !errors.Is(err, tt.wantErr) || res.Finish != FinishCancelled {
				t.Fatalf("err %v, finish %q; want %v, cancelled", err, res.Finish, tt.wantErr)
			}
			// Events reach emit in batches, so the scheduler may already be
			// a step or two past the event that cancels; after it sees the
			// cancellation it runs at most one more step.
			if emitted != 3 || res.Usage.Completion > 6 {
				t.Errorf("%d events emitted, %d tokens generated; want 3 and at most three more steps", emitted, res.Usage.Completion)
			}
			ids, _, _, res := collect(t, e, Request{Prompt: c.PromptIDs, Params: greedy(5)})
			if !slices.Equal(ids, c.GeneratedIDs[:5]) || res.Finish != FinishLength {
				t.Errorf("after cancellation: %v (%q), want %v", ids, res.Finish, c.GeneratedIDs[:5])
			}
		})
	}
}

// TestQueueBusyAndClose fills the queue while the scheduler is held, then
// checks the busy error, and that Close fails what is still queued.
func TestQueueBusyAndClose(t *testing.T) {
	path := fixturePath(t, "gguf", "llama-tiny-F32.gguf")
	e, err := Load(context.Background(), path, Options{Threads: 1, Ctx: 32, Parallel: 1, Queue: 1, QueueTimeout: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	hold, held := make(chan struct{}), make(chan struct{})
	go e.Score(context.Background(), []int32{1, 2}, 1, func(int, []float32) error {
		close(held)
		<-hold
		return nil
	})
	<-held
	queued := make(chan error)
	go func() {
		_, err := e.Generate(context.Background(), Request{Prompt: []int32{1}, Params: greedy(1)}, func(Event) error { return nil })
		queued <- err
	}()
	waitQueued(t, e)
	_, err = e.Generate(context.Background(), Request{Prompt: []int32{1}, Params: greedy(1)}, func(Event) error { return nil })
	if !errors.Is(err, ErrBusy) {
		t.Errorf("third request: %v, want ErrBusy", err)
	}
	closed := make(chan error)
	go func() { closed <- e.Close() }()
	close(hold)
	if err := <-queued; !errors.Is(err, ErrClosed) && err != nil {
		t.Errorf("queued request at Close: %v, want ErrClosed or success", err)
	}
	if err := <-closed; err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := e.Generate(context.Background(), Request{Prompt: []int32{1}, Params: greedy(1)}, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v, want ErrClosed", err)
	}
}

func waitQueued(t *testing.T, e *Engine) {
	t.Helper()
	for range 1000 {
		if e.Busy() != nil {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the request never reached the queue")
}
