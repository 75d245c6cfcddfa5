package server

import (
	"bufio"
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestFinishAfterRelease finishes a streaming call whose request context
// fasthttp released (it runs a body stream writer in a goroutine of its
// own and, once the client is gone, may reuse the context for another
// request before the writer ends): the log line must still name the
// stream's request, not the released or reused context's.
func TestFinishAfterRelease(t *testing.T) {
	var log syncBuffer
	s := New(newFakeLoader(), Options{Log: slog.New(slog.NewTextHandler(&log, nil))})
	defer s.Shutdown(context.Background())
	rc := &fasthttp.RequestCtx{}
	rc.Request.Header.SetMethod(http.MethodPost)
	rc.Request.SetRequestURI("/v1/responses")
	c := s.newCall(rc, routeResponses)
	s.obs.inFlight.Add(1)
	c.streaming, c.status = true, 499
	rc.Request.Reset() // as fasthttp does when it releases the context
	rc.Response.Reset()
	c.finish()
	if got := log.String(); !strings.Contains(got, "method=POST path=/v1/responses status=499") {
		t.Errorf("log line %q", got)
	}
}

// TestStreamAfterClientLeft closes the connection of a chat and of a
// response stream mid-stream and serves other requests while the streams
// end: each ends with status 499 in the log and the other requests are
// answered.
func TestStreamAfterClientLeft(t *testing.T) {
	var log syncBuffer
	ts, f := startFake(t, strings.Repeat("x", 10000), Options{SSEKeepAlive: -1, Log: slog.New(slog.NewTextHandler(&log, nil))})
	f.delay = 5 * time.Millisecond
	if err := ts.Preload(context.Background(), "m"); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/v1/chat/completions", "/v1/responses"} {
		body := `{"model":"m","stream":true,` + userHi + `}`
		if path == "/v1/responses" {
			body = `{"model":"m","stream":true,"input":"hi"}`
		}
		conn := openStream(t, ts, path, body)
		r := bufio.NewReader(conn)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			// A delta: the engine generates (a response's first frames come before).
			if strings.HasPrefix(line, "data: ") && (path != "/v1/responses" || strings.Contains(line, "output_text.delta")) {
				break
			}
		}
		conn.Close()
		deadline := time.Now().Add(300 * time.Millisecond)
		for time.Now().Before(deadline) {
			if status, b, _ := ts.do(t, http.MethodGet, "/v1/models", ""); status != 200 {
				t.Fatalf("a request while the stream ends: %d %s", status, b)
			}
		}
		select {
		case <-f.cancels:
		case <-time.After(2 * time.Second):
			t.Fatalf("the generation of %s did not stop", path)
		}
		if !waitFor(time.Second, func() bool { return strings.Contains(log.String(), "path="+path+" status=499") }) {
			t.Errorf("no log line for the stream of %s with status 499:\n%s", path, log.String())
		}
	}
	if strings.Contains(log.String(), "0.0.0.0:0") {
		t.Errorf("a log line has a released request's address:\n%s", log.String())
	}
}
