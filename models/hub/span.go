package hub

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
)

// span is the byte range [start, end) of a file, fetched into f whose
// offset 0 holds byte start. done bytes are there already; end is -1 when
// the size of the file is unknown.
type span struct {
	f     *os.File
	path  string
	start int64
	end   int64
	done  int64
}

func (sp *span) finished() bool { return sp.end >= 0 && sp.start+sp.done >= sp.end }

// fetchSpan downloads what the span lacks, retrying transient failures;
// each retry asks only for the bytes still missing.
func (c *Client) fetchSpan(ctx context.Context, u, what string, sp *span, size int64, prog *fileProgress) error {
	return c.retry(ctx, -1, func() (bool, error) {
		if sp.finished() {
			return false, nil
		}
		return c.getSpan(ctx, u, what, sp, size, prog)
	})
}

// getSpan does one GET for the missing bytes of sp. A 200 to a range request
// restarts a whole-file span and fails a part with errNoRange.
func (c *Client) getSpan(ctx context.Context, u, what string, sp *span, size int64, prog *fileProgress) (bool, error) {
	from := sp.start + sp.done
	isPart := sp.start > 0 || (sp.end >= 0 && sp.end < size)
	var h http.Header
	if from > 0 || isPart {
		r := fmt.Sprintf("bytes=%d-", from)
		if isPart {
			r += strconv.FormatInt(sp.end-1, 10)
		}
		h = http.Header{"Range": {r}}
	}
	resp, err := c.send(ctx, c.http, http.MethodGet, u, h)
	if err != nil {
		return false, fmt.Errorf("%s: %w", what, err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusPartialContent:
		start, total, ok := parseContentRange(resp.Header.Get("Content-Range"))
		if !ok || start != from || (size >= 0 && total >= 0 && total != size) {
			return false, fmt.Errorf("%s: asked for bytes from %d of %d, got Content-Range %.80q: %w",
				what, from, size, resp.Header.Get("Content-Range"), ErrProtocol)
		}
	case http.StatusOK:
		if isPart {
			return false, fmt.Errorf("%s: %w", what, errNoRange)
		}
		if from > 0 { // the whole file again: start over
			if err := sp.f.Truncate(0); err != nil {
				return false, err
			}
			prog.add(-sp.done)
			sp.done = 0
		}
	default:
		return false, statusError(resp, what, c.opts.Token != "")
	}
	want := int64(maxFileSize)
	if sp.end >= 0 {
		want = sp.end - sp.start - sp.done
	}
	n, err := copySpan(sp, io.LimitReader(resp.Body, want), prog)
	switch {
	case err != nil:
		return n > 0, fmt.Errorf("%s: %w", what, err)
	case sp.end < 0:
		sp.end = sp.start + sp.done // the file ended with the body
	case !sp.finished():
		return n > 0, fmt.Errorf("%s: body ended at byte %d of %d: %w", what, sp.start+sp.done, sp.end, io.ErrUnexpectedEOF)
	}
	return n > 0, nil
}

// copySpan writes r to sp.f from offset sp.done, counting progress. A write
// error is wrapped as permanent (disk full or other).
func copySpan(sp *span, r io.Reader, prog *fileProgress) (int64, error) {
	buf := make([]byte, 256<<10)
	var total int64
	for {
		n, rerr := r.Read(buf)
		if n > 0 {
			if _, err := sp.f.WriteAt(buf[:n], sp.done); err != nil {
				return total, &writeError{diskFull(err, sp.path)}
			}
			sp.done += int64(n)
			total += int64(n)
			prog.add(int64(n))
		}
		if rerr == io.EOF {
			return total, nil
		}
		if rerr != nil {
			return total, rerr
		}
	}
}

// writeError is a failure to write to the cache; retrying does not help.
type writeError struct{ err error }

func (e *writeError) Error() string { return e.err.Error() }
func (e *writeError) Unwrap() error { return e.err }

// parseContentRange reads "bytes first-last/total"; total is -1 for "*".
func parseContentRange(s string) (first, total int64, ok bool) {
	rest, found := strings.CutPrefix(s, "bytes ")
	if !found {
		return 0, 0, false
	}
	rng, tot, found := strings.Cut(rest, "/")
	if !found {
		return 0, 0, false
	}
	a, _, found := strings.Cut(rng, "-")
	if !found {
		return 0, 0, false
	}
	first, err := strconv.ParseInt(a, 10, 64)
	if err != nil || first < 0 {
		return 0, 0, false
	}
	total = -1
	if tot != "*" {
		if total, err = strconv.ParseInt(tot, 10, 64); err != nil {
			return 0, 0, false
		}
	}
	return first, total, true
}
