package server

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mlxrun/mlx/runtime"
)

func fakes(ids ...string) (*fakeLoader, map[string]*fakeModel) {
	ms := map[string]*fakeModel{}
	var list []*fakeModel
	for _, id := range ids {
		f := newFake("ok")
		f.id = id
		ms[id] = f
		list = append(list, f)
	}
	return newFakeLoader(list...), ms
}

func TestManagerLoadsOnce(t *testing.T) {
	l, _ := fakes("a")
	l.delay = 50 * time.Millisecond
	m := newManager(context.Background(), l, 0, 0)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, release, err := m.acquire(context.Background(), "a", false)
			if err == nil {
				release()
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := l.count("a"); n != 1 {
		t.Errorf("8 concurrent requests loaded the model %d times, want 1", n)
	}
}

func TestManagerLRU(t *testing.T) {
	l, ms := fakes("a", "b", "c")
	m := newManager(context.Background(), l, 2, 0)
	use := func(id string) {
		t.Helper()
		_, release, err := m.acquire(context.Background(), id, false)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond) // distinct last-use times
		release()
	}
	use("a")
	use("b")
	use("a") // b is now the least recently used
	use("c")
	if !ms["b"].closed.Load() || ms["a"].closed.Load() || ms["c"].closed.Load() {
		t.Errorf("closed a=%v b=%v c=%v, want only b", ms["a"].closed.Load(), ms["b"].closed.Load(), ms["c"].closed.Load())
	}
	if n := m.loaded(); n != 2 {
		t.Errorf("%d loaded, want 2", n)
	}
}

func TestManagerBusyModelsStay(t *testing.T) {
	l, ms := fakes("a", "b")
	m := newManager(context.Background(), l, 1, 0)
	_, releaseA, err := m.acquire(context.Background(), "a", false)
	if err != nil {
		t.Fatal(err)
	}
	_, releaseB, err := m.acquire(context.Background(), "b", false)
	if err != nil {
		t.Fatal(err)
	}
	if ms["a"].closed.Load() {
		t.Fatal("a model in use was unloaded")
	}
	releaseA()
	if !ms["a"].closed.Load() {
		t.Error("a was not unloaded once idle beyond --max-loaded")
	}
	releaseB()
}

func TestManagerKeepAlive(t *testing.T) {
	l, ms := fakes("a", "pinned")
	m := newManager(context.Background(), l, 0, 30*time.Millisecond)
	for _, id := range []string{"a", "pinned"} {
		_, release, err := m.acquire(context.Background(), id, id == "pinned")
		if err != nil {
			t.Fatal(err)
		}
		release()
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go m.janitor(ctx, 5*time.Millisecond)
	if !waitFor(time.Second, func() bool { return ms["a"].closed.Load() }) {
		t.Fatal("idle model not unloaded after keep-alive")
	}
	if ms["pinned"].closed.Load() || m.loaded() != 1 {
		t.Error("the pinned model was unloaded")
	}
}

func TestManagerErrors(t *testing.T) {
	l, _ := fakes("a")
	m := newManager(context.Background(), l, 0, 0)
	if _, _, err := m.acquire(context.Background(), "missing", false); !errors.Is(err, runtime.ErrModelNotFound) {
		t.Errorf("missing model: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	l.delay = 50 * time.Millisecond
	if _, _, err := m.acquire(ctx, "a", false); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled wait: %v", err)
	}
	m.close()
	if _, _, err := m.acquire(context.Background(), "a", false); !errors.Is(err, ErrShutdown) {
		t.Errorf("after close: %v", err)
	}
}

func TestManagerAlias(t *testing.T) {
	l, _ := fakes("/models/qwen3-tiny.gguf")
	m := newManager(context.Background(), l, 0, 0)
	if _, release, err := m.acquire(context.Background(), "/models/qwen3-tiny.gguf", true); err != nil {
		t.Fatal(err)
	} else {
		release()
	}
	if _, ok := m.lookup("qwen3-tiny"); !ok {
		t.Error("the short name does not find the model")
	}
}

func TestShutdownCancelsStreams(t *testing.T) {
	f := newFake("slow reply that never ends")
	f.id, f.delay = "m", time.Hour
	ts := start(t, newFakeLoader(f), Options{})
	conn := openStream(t, ts, "/v1/chat/completions", `{"model":"m","stream":true,`+userHi+`}`)
	defer conn.Close()
	if !waitFor(time.Second, func() bool { return f.active.Load() == 1 }) {
		t.Fatal("no generation")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := ts.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if f.active.Load() != 0 || !f.closed.Load() || time.Since(start) > time.Second {
		t.Errorf("after shutdown: %d generations, closed %v, took %v", f.active.Load(), f.closed.Load(), time.Since(start))
	}
}

// blockingLoader's loads wait for their context.
type blockingLoader struct{ started chan struct{} }

func (l *blockingLoader) Load(ctx context.Context, ref string) (Model, error) {
	close(l.started)
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestManagerCloseCancelsLoads: closing the manager (shutdown) ends the
// loads in progress, so that a slow or stuck load cannot hold a request,
// and the shutdown that waits for it, forever.
func TestManagerCloseCancelsLoads(t *testing.T) {
	l := &blockingLoader{started: make(chan struct{})}
	m := newManager(context.Background(), l, 0, 0)
	done := make(chan error, 1)
	go func() {
		_, _, err := m.acquire(context.Background(), "x", false)
		done <- err
	}()
	<-l.started
	m.close()
	select {
	case err := <-done:
		if err == nil {
			t.Error("acquire succeeded")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a load in progress kept acquire waiting after close")
	}
}

// slowStopLoader's loads take a while to stop once cancelled, as a
// download does while it closes its files.
type slowStopLoader struct {
	started chan struct{}
	ended   atomic.Bool
}

func (l *slowStopLoader) Load(ctx context.Context, ref string) (Model, error) {
	close(l.started)
	<-ctx.Done()
	time.Sleep(50 * time.Millisecond)
	l.ended.Store(true)
	return nil, ctx.Err()
}

// TestManagerCloseWaitsForLoads: close returns only once the loads it
// cancelled have ended, so that a shutdown does not leave a download
// writing while the process exits.
func TestManagerCloseWaitsForLoads(t *testing.T) {
	l := &slowStopLoader{started: make(chan struct{})}
	m := newManager(context.Background(), l, 0, 0)
	go m.acquire(context.Background(), "x", false)
	<-l.started
	m.close()
	if !l.ended.Load() {
		t.Error("close returned while a load was still running")
	}
}

// A Serve that starts after Shutdown returns at once: the server is
// stopped, and its caller must not wait on it forever.
func TestServeAfterShutdownReturns(t *testing.T) {
	l, _ := fakes("/models/qwen3-tiny.gguf")
	srv := New(l, Options{})
	if err := srv.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		if !errors.Is(err, ErrStopped) {
			t.Errorf("Serve after Shutdown: %v, want ErrStopped", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Serve after Shutdown did not return")
	}
}
