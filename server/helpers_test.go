package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// testServer is a Server on a loopback port with an HTTP client.
type testServer struct {
	*Server
	client *http.Client
	url    string
}

// start serves l with opt until the test ends.
func start(t *testing.T, l Loader, opt Options) *testServer {
	t.Helper()
	s := New(l, opt)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		s.Shutdown(ctx)
	})
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &testServer{Server: s, client: &http.Client{Transport: tr, Timeout: 10 * time.Second}, url: "http://" + ln.Addr().String()}
}

// startFake serves one fake model named "m" that replies reply.
func startFake(t *testing.T, reply string, opt Options) (*testServer, *fakeModel) {
	t.Helper()
	f := newFake(reply)
	f.id = "m"
	return start(t, newFakeLoader(f), opt), f
}

// do sends a request and returns the status and the body.
func (ts *testServer) do(t *testing.T, method, path, body string, header ...string) (int, []byte, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, ts.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := ts.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, path, err)
	}
	return resp.StatusCode, b, resp.Header
}

// post sends a JSON body and decodes the answer into out (when not nil);
// it fails the test unless the status is want.
func (ts *testServer) post(t *testing.T, path, body string, want int, out any) []byte {
	t.Helper()
	status, b, _ := ts.do(t, http.MethodPost, path, body)
	if status != want {
		t.Fatalf("POST %s %s: status %d, want %d: %s", path, body, status, want, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("POST %s: %v in %s", path, err, b)
		}
	}
	return b
}

// frame is one SSE frame.
type frame struct {
	event string
	data  string
}

// parseSSE splits a stream body into frames; comments are returned with
// event ":".
func parseSSE(t *testing.T, body []byte) []frame {
	t.Helper()
	var out []frame
	var cur frame
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur != (frame{}) {
				out = append(out, cur)
			}
			cur = frame{}
		case strings.HasPrefix(line, ":"):
			out = append(out, frame{event: ":", data: strings.TrimSpace(line[1:])})
		case strings.HasPrefix(line, "event: "):
			cur.event = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			cur.data += line[len("data: "):]
		default:
			t.Fatalf("unexpected SSE line %q", line)
		}
	}
	return out
}

// apiErr is a decoded error body.
type apiErr struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

func decodeErr(t *testing.T, b []byte) apiErr {
	t.Helper()
	var e apiErr
	if err := json.Unmarshal(b, &e); err != nil || e.Error.Message == "" {
		t.Fatalf("not an OpenAI error body (%v): %s", err, b)
	}
	return e
}
