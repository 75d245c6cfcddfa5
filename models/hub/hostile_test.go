package hub

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// rogueHub is a hub that serves one file, m.gguf, and can leave out what a
// download relies on: the size in its headers and its listing, a checksum
// ETag, the end of the body.
type rogueHub struct {
	content    []byte
	etag       string // "" for the sha256 of content
	listSize   bool   // the revision API gives the size
	headSize   bool   // HEAD gives X-Linked-Size
	endless    bool   // GET sends content, then garbage without end, chunked
	sent, gets atomic.Int64
}

func (h *rogueHub) start(t *testing.T) *httptest.Server {
	t.Helper()
	if h.etag == "" {
		sum := sha256.Sum256(h.content)
		h.etag = hex.EncodeToString(sum[:])
	}
	srv := httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(srv.Close)
	return srv
}

func (h *rogueHub) serve(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/api/models/") {
		sib := map[string]any{"rfilename": "m.gguf"}
		if h.listSize {
			sib["size"] = len(h.content)
		}
		json.NewEncoder(w).Encode(map[string]any{"sha": strings.Repeat("a", 40), "siblings": []any{sib}})
		return
	}
	w.Header().Set("X-Repo-Commit", strings.Repeat("a", 40))
	w.Header().Set("ETag", strconv.Quote(h.etag))
	if r.Method == http.MethodHead {
		if h.headSize {
			w.Header().Set("X-Linked-Size", strconv.Itoa(len(h.content)))
		}
		return
	}
	h.gets.Add(1)
	if !h.endless {
		w.Header().Set("Content-Length", strconv.Itoa(len(h.content)))
		n, _ := w.Write(h.content)
		h.sent.Add(int64(n))
		return
	}
	junk := make([]byte, 64<<10)
	for chunk := h.content; r.Context().Err() == nil; chunk = junk {
		n, err := w.Write(chunk)
		h.sent.Add(int64(n))
		if err != nil || h.sent.Load() > 1<<30 {
			return
		}
		w.(http.Flusher).Flush()
	}
}

// rogueClient returns a client of srv with the default retries and delays.
func rogueClient(t *testing.T, srv *httptest.Server, mod func(*Options)) *Client {
	t.Helper()
	opts := Options{Endpoint: srv.URL, CacheDir: t.TempDir(), StallTimeout: 2 * time.Second}
	if mod != nil {
		mod(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func pullRogue(t *testing.T, c *Client) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := c.Pull(ctx, Ref{Repo: "org/m", File: "m.gguf"})
	return err
}

// A body of unknown size, sent without end, is refused before any byte is
// fetched when the listing gives no size either.
func TestUnknownSizeRefused(t *testing.T) {
	h := &rogueHub{content: []byte("GGUF and some more"), endless: true}
	err := pullRogue(t, rogueClient(t, h.start(t), nil))
	if !errors.Is(err, ErrUnknownSize) {
		t.Fatalf("error %v, want ErrUnknownSize", err)
	}
	if h.gets.Load() != 0 {
		t.Errorf("%d GETs of a file of unknown size", h.gets.Load())
	}
}

// The listing's size bounds a body the headers give no size for.
func TestListingSizeCapsBody(t *testing.T) {
	h := &rogueHub{content: []byte("GGUF and some more"), endless: true, listSize: true}
	c := rogueClient(t, h.start(t), nil)
	if err := pullRogue(t, c); err != nil {
		t.Fatal(err)
	}
	s, err := c.Cache().Find(Ref{Repo: "org/m", File: "m.gguf"})
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, s.Path); string(got) != string(h.content) {
		t.Errorf("cached %q, want %q", got, h.content)
	}
}

// A file whose ETag is no checksum is refused over plain http, and named on
// Notify when allowed.
func TestUnverifiedETag(t *testing.T) {
	h := &rogueHub{content: []byte("GGUF bytes"), etag: "mirror-etag-1", headSize: true}
	srv := h.start(t)
	err := pullRogue(t, rogueClient(t, srv, nil))
	if !errors.Is(err, ErrUnverified) || !strings.Contains(err.Error(), "m.gguf") {
		t.Fatalf("error %v, want ErrUnverified naming the file", err)
	}
	if h.gets.Load() != 0 {
		t.Errorf("%d GETs of a file that was refused", h.gets.Load())
	}
	var mu sync.Mutex
	var notes []string
	c := rogueClient(t, srv, func(o *Options) {
		o.AllowHTTP = true
		o.Notify = func(s string) { mu.Lock(); notes = append(notes, s); mu.Unlock() }
	})
	if err := pullRogue(t, c); err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "m.gguf") || !strings.Contains(notes[0], "not verified") {
		t.Errorf("notices %q, want one naming m.gguf as not verified", notes)
	}
}

// An address nothing listens at, or a name that does not resolve, fails at
// once (no retries, no fallback to the tree API) with ErrUnreachable.
func TestUnreachableFailsAtOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	for _, endpoint := range []string{closed, "http://nonexistent.invalid"} {
		var notes atomic.Int64
		c, err := New(Options{Endpoint: endpoint, CacheDir: t.TempDir(), Notify: func(string) { notes.Add(1) }})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err = c.Pull(context.Background(), Ref{Repo: "org/m"})
		took := time.Since(start)
		if !errors.Is(err, ErrUnreachable) {
			t.Errorf("%s: error %v, want ErrUnreachable", endpoint, err)
		}
		if took > 10*time.Second || notes.Load() != 0 {
			t.Errorf("%s: failed after %v and %d retries, want at once", endpoint, took, notes.Load())
		}
	}
}

// A listing that keeps failing with 500 is retried a few times, each retry
// announced, and not again through the tree API.
func TestListing500RetriedVisibly(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Error(w, "boom", http.StatusInternalServerError)
	}))
	t.Cleanup(srv.Close)
	var notes []string
	c := rogueClient(t, srv, func(o *Options) {
		o.RetryDelay = time.Millisecond
		o.Notify = func(s string) { notes = append(notes, s) }
	})
	_, err := c.Pull(context.Background(), Ref{Repo: "org/m"})
	if err == nil || !strings.Contains(err.Error(), "500") {
		t.Fatalf("error %v, want the 500", err)
	}
	if hits.Load() != maxMetaRetries+1 || len(notes) != maxMetaRetries {
		t.Errorf("%d requests and %d notices %q, want %d and %d", hits.Load(), len(notes), notes, maxMetaRetries+1, maxMetaRetries)
	}
	for _, n := range notes {
		if !strings.Contains(n, "retrying") || !strings.Contains(n, "500") {
			t.Errorf("notice %q does not say it retries after a 500", n)
		}
	}
}

// A certificate that does not verify is not retried.
func TestBadCertificateNotRetried(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)
	var notes atomic.Int64
	c, err := New(Options{Endpoint: srv.URL, CacheDir: t.TempDir(), Notify: func(string) { notes.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Pull(context.Background(), Ref{Repo: "org/m"})
	if err == nil || !strings.Contains(err.Error(), "certificate") || notes.Load() != 0 {
		t.Errorf("error %v after %d retries, want a certificate error at once", err, notes.Load())
	}
}
