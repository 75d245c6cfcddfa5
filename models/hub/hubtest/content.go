package hubtest

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// serveContent answers a GET or HEAD of a file's bytes: Range (one range,
// 206), If-None-Match (304) and the injected faults. It logs the body
// bytes written.
func (s *Server) serveContent(w http.ResponseWriter, r *http.Request, b *blob, file string, i *Request) {
	status := func(code int) { s.update(i, func(q *Request) { q.Status = code }) }
	h := w.Header()
	h.Set("Accept-Ranges", "bytes")
	if inm := r.Header.Get("If-None-Match"); inm != "" && inm == h.Get("ETag") {
		status(http.StatusNotModified)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	s.mu.Lock()
	rng := r.Header.Get("Range")
	if s.noRanges {
		rng = ""
	}
	s.mu.Unlock()
	start, end, partial, ok := parseRange(rng, b.size)
	if !ok {
		status(http.StatusRequestedRangeNotSatisfiable)
		h.Set("Content-Range", fmt.Sprintf("bytes */%d", b.size))
		w.WriteHeader(http.StatusRequestedRangeNotSatisfiable)
		return
	}
	var fault *Fault
	if r.Method == http.MethodGet {
		fault = s.takeFault(file)
	}
	if fault != nil && fault.Kind == FaultStatus {
		status(fault.Status)
		http.Error(w, http.StatusText(fault.Status), fault.Status)
		return
	}
	code := http.StatusOK
	if partial {
		code = http.StatusPartialContent
		h.Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", start, end-1, b.size))
	}
	h.Set("Content-Length", strconv.FormatInt(end-start, 10))
	status(code)
	w.WriteHeader(code)
	if r.Method == http.MethodHead {
		return
	}
	body, err := b.open()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	defer body.Close()
	if _, err := body.Seek(start, io.SeekStart); err != nil {
		panic(http.ErrAbortHandler)
	}
	var src io.Reader = io.LimitReader(body, end-start)
	cw := &countWriter{w: w, s: s, i: i}
	if fault != nil && fault.Kind == FaultCorrupt {
		src = &flipFirst{r: src}
	}
	if fault == nil || (fault.Kind != FaultCut && fault.Kind != FaultStall) {
		io.Copy(cw, src)
		return
	}
	io.CopyN(cw, src, fault.At)
	http.NewResponseController(w).Flush()
	if fault.Kind == FaultStall {
		d := fault.Stall
		if d == 0 {
			d = 30 * time.Second
		}
		select {
		case <-r.Context().Done():
		case <-time.After(d):
		}
		return
	}
	if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
		conn.Close()
		return
	}
	panic(http.ErrAbortHandler)
}

// parseRange reads a "bytes=a-b", "bytes=a-" or "bytes=-n" header; no
// header means the whole file.
func parseRange(h string, size int64) (start, end int64, partial, ok bool) {
	if h == "" {
		return 0, size, false, true
	}
	spec, found := strings.CutPrefix(h, "bytes=")
	if !found || strings.Contains(spec, ",") {
		return 0, 0, false, false
	}
	a, b, found := strings.Cut(spec, "-")
	if !found {
		return 0, 0, false, false
	}
	if a == "" { // the last n bytes
		n, err := strconv.ParseInt(b, 10, 64)
		if err != nil || n <= 0 {
			return 0, 0, false, false
		}
		return max(0, size-n), size, true, true
	}
	start, err := strconv.ParseInt(a, 10, 64)
	if err != nil || start < 0 || start >= size {
		return 0, 0, false, false
	}
	end = size
	if b != "" {
		last, err := strconv.ParseInt(b, 10, 64)
		if err != nil || last < start {
			return 0, 0, false, false
		}
		end = min(last+1, size)
	}
	return start, end, true, true
}

// countWriter logs the body bytes written. It counts them before the
// write and takes back what the write did not take: counted after, the
// client could read the last bytes, and a test ask for the total, before
// the handler's goroutine ran again.
type countWriter struct {
	w io.Writer
	s *Server
	i *Request
}

func (c *countWriter) Write(p []byte) (int, error) {
	c.s.update(c.i, func(q *Request) { q.BodyBytes += int64(len(p)) })
	n, err := c.w.Write(p)
	if n < len(p) {
		c.s.update(c.i, func(q *Request) { q.BodyBytes -= int64(len(p) - n) })
	}
	return n, err
}

// flipFirst changes the first byte it reads.
type flipFirst struct {
	r    io.Reader
	done bool
}

func (f *flipFirst) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if n > 0 && !f.done {
		p[0] ^= 0xff
		f.done = true
	}
	return n, err
}
