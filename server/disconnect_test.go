package server

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"
)

// openStream sends a request over a raw TCP connection and returns it.
func openStream(t *testing.T, ts *testServer, path, body string) net.Conn {
	t.Helper()
	addr := strings.TrimPrefix(ts.url, "http://")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", path, addr, len(body), body)
	return conn
}

// waitFor polls cond for up to d.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return cond()
}

// TestClientDisconnect closes the connection mid-stream, during a long
// prefill and during a non-streamed generation: each time the engine's
// context must end and the in-flight gauge return to 0 within a second.
func TestClientDisconnect(t *testing.T) {
	cases := []struct {
		name      string
		body      string
		prefill   time.Duration
		readFirst bool // read the first data frame before closing
	}{
		{"mid-stream", `{"model":"m","stream":true,` + userHi + `}`, 0, true},
		{"during prefill", `{"model":"m","stream":true,` + userHi + `}`, time.Hour, false},
		{"not streamed", `{"model":"m",` + userHi + `}`, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts, f := startFake(t, strings.Repeat("x", 10000), Options{SSEKeepAlive: -1})
			f.delay, f.prefill = 5*time.Millisecond, c.prefill
			if err := ts.Preload(context.Background(), "m"); err != nil {
				t.Fatal(err)
			}
			conn := openStream(t, ts, "/v1/chat/completions", c.body)
			if c.readFirst {
				r := bufio.NewReader(conn)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						t.Fatal(err)
					}
					if strings.HasPrefix(line, "data: ") {
						break
					}
				}
			} else if !waitFor(time.Second, func() bool { return f.active.Load() == 1 }) {
				t.Fatal("generation did not start")
			}
			closed := time.Now()
			conn.Close()
			select {
			case cause := <-f.cancels:
				if cause == nil {
					t.Error("cancelled without a cause")
				}
			case <-time.After(time.Second):
				t.Fatal("the engine's context was not cancelled within 1 s of the disconnect")
			}
			if !waitFor(time.Second, func() bool { return ts.obs.inFlight.Value() == 0 && f.active.Load() == 0 }) {
				t.Fatalf("in flight %g, generations %d after 1 s", ts.obs.inFlight.Value(), f.active.Load())
			}
			if ts.obs.running.Value() != 0 || ts.obs.waiting.Value() != 0 {
				t.Errorf("running %g waiting %g", ts.obs.running.Value(), ts.obs.waiting.Value())
			}
			t.Logf("freed %v after the close", time.Since(closed))
		})
	}
}

func TestSSEKeepAlive(t *testing.T) {
	ts, f := startFake(t, "ab", Options{SSEKeepAlive: 20 * time.Millisecond})
	f.prefill = 150 * time.Millisecond
	_, b, _ := ts.do(t, "POST", "/v1/chat/completions", `{"model":"m","stream":true,`+userHi+`}`)
	frames := parseSSE(t, b)
	if frames[0].event != ":" || frames[0].data != "keep-alive" {
		t.Fatalf("first frame %+v, want a keep-alive comment", frames[0])
	}
	if _, done := chatChunks(t, frames); !done {
		t.Error("no [DONE] after keep-alives")
	}
}

func TestErrorsDuringGeneration(t *testing.T) {
	ts, f := startFake(t, "ab", Options{})
	f.genErr = fmt.Errorf("queue full: %w", errBusyForTest)
	status, b, h := ts.do(t, "POST", "/v1/chat/completions", `{"model":"m",`+userHi+`}`)
	if e := decodeErr(t, b).Error; status != 429 || h.Get("Retry-After") == "" || e.Code == nil || *e.Code != "engine_overloaded" ||
		!strings.Contains(e.Message, "--max-queue") {
		t.Errorf("not streamed: %d %s (Retry-After %q), want 429 naming --max-queue", status, b, h.Get("Retry-After"))
	}
	status, b, _ = ts.do(t, "POST", "/v1/chat/completions", `{"model":"m","stream":true,`+userHi+`}`)
	frames := parseSSE(t, b)
	last := frames[len(frames)-1]
	if status != 200 || last.event != "error" || !strings.Contains(last.data, "queue full") {
		t.Errorf("streamed: %d, last frame %+v", status, last)
	}
	if _, done := chatChunks(t, frames); done {
		t.Error("[DONE] after an error")
	}
}
