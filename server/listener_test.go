package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// flakyListener fails its first accepts as a process out of file
// descriptors does.
type flakyListener struct {
	net.Listener
	fails atomic.Int32
}

func (l *flakyListener) Accept() (net.Conn, error) {
	if l.fails.Add(-1) >= 0 {
		return nil, &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	}
	return l.Listener.Accept()
}

// TestServeSurvivesAcceptErrors: running out of file descriptors makes
// accept fail; the server waits and accepts again instead of stopping.
func TestServeSurvivesAcceptErrors(t *testing.T) {
	f := newFake("ok")
	f.id = "m"
	s := New(newFakeLoader(f), Options{})
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := &flakyListener{Listener: inner}
	ln.fails.Store(5)
	served := make(chan error, 1)
	go func() { served <- s.Serve(ln) }()
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		s.Shutdown(ctx)
	}()
	client := &http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get("http://" + inner.Addr().String() + "/health")
	if err != nil {
		select {
		case err := <-served:
			t.Fatalf("Serve stopped on an accept error: %v", err)
		default:
		}
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
}

// TestAcceptBackoff: the waits between failed accepts start at 5 ms and
// double up to 1 s; a closed listener ends Accept.
func TestAcceptBackoff(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fl := &flakyListener{Listener: inner}
	fl.fails.Store(10)
	var waits []time.Duration
	l := &listener{Listener: fl, conns: newConnSet(10), sleep: func(d time.Duration) {
		waits = append(waits, d)
		if len(waits) == 10 {
			inner.Close()
		}
	}}
	if _, err := l.Accept(); err == nil {
		t.Fatal("Accept on a closed listener succeeded")
	}
	want := "[5ms 10ms 20ms 40ms 80ms 160ms 320ms 640ms 1s 1s]"
	if got := fmt.Sprint(waits); got != want {
		t.Errorf("waits %s, want %s", got, want)
	}
}

// dialIdle opens a connection that sends nothing.
func dialIdle(t *testing.T, ts *testServer) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(ts.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// waitOpen waits until the server counts n open connections.
func waitOpen(t *testing.T, ts *testServer, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ts.conns.open() != n; {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections open, want %d", ts.conns.open(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestConnCapClosesIdle: at the cap, a new connection closes the one idle
// the longest, so idle connections cannot lock clients out.
func TestConnCapClosesIdle(t *testing.T) {
	ts, _ := startFake(t, "ok", Options{MaxConns: 3})
	first := dialIdle(t, ts)
	waitOpen(t, ts, 1)
	for range 2 {
		dialIdle(t, ts)
	}
	waitOpen(t, ts, 3)
	if status, b, _ := ts.do(t, "GET", "/health", ""); status != 200 {
		t.Fatalf("health at the cap: %d %s", status, b)
	}
	_ = first.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := first.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("the oldest idle connection: read %v, want EOF (closed)", err)
	}
	if n := ts.conns.open(); n > 3 {
		t.Errorf("%d connections open past the cap of 3", n)
	}
}

// TestConnCapBusy: when every connection serves a request, a new one gets
// 503 and is closed.
func TestConnCapBusy(t *testing.T) {
	ts, f := startFake(t, "slow answer", Options{MaxConns: 1})
	f.delay = 50 * time.Millisecond
	done := make(chan int, 1)
	go func() {
		resp, err := http.Post(ts.url+"/v1/completions", "application/json", strings.NewReader(`{"model":"m","prompt":"a"}`))
		if err != nil {
			done <- 0
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	for deadline := time.Now().Add(5 * time.Second); f.active.Load() == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the first request never started")
		}
	}
	c := dialIdle(t, ts)
	fmt.Fprintf(c, "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 503 || !strings.Contains(string(b), "--max-conns") {
		t.Errorf("beyond the cap: %d %s", resp.StatusCode, b)
	}
	if status := <-done; status != 200 {
		t.Errorf("the busy request: status %d", status)
	}
}

// TestConnBusyUntilRead: a connection stays busy after its handler ends,
// while the response is written, and turns idle only when the server
// reads it for the next request; only then may a new connection close it.
func TestConnBusyUntilRead(t *testing.T) {
	set := newConnSet(1)
	a, peer := net.Pipe()
	defer peer.Close()
	wa := &watchConn{Conn: a, set: set}
	if _, ok := set.add(wa); !ok {
		t.Fatal("the first connection was refused")
	}
	set.begin(wa) // a handler starts, then returns; the response is not written yet
	if victim, ok := set.add(&watchConn{set: set}); ok || victim != nil {
		t.Fatalf("a connection whose response is not written yet was taken: %v %v", victim, ok)
	}
	go peer.Write([]byte("GET / HTTP/1.1\r\n\r\n"))
	if _, err := wa.Read(make([]byte, 64)); err != nil {
		t.Fatal(err)
	}
	if victim, ok := set.add(&watchConn{set: set}); !ok || victim != wa {
		t.Errorf("the idle connection was not taken: %v %v", victim, ok)
	}
}
