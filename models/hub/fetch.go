package hub

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// fetchBlob makes blobs/<etag> hold the file: nothing to do when it is
// there, else it is downloaded into <etag>.incomplete under the blob's lock,
// verified, and renamed. A file that fails the checksum is deleted.
func (c *Client) fetchBlob(ctx context.Context, repo, commit, file string, m fileMeta, prog *fileProgress) error {
	blob := c.cache.blobPath(repo, m.ETag)
	if blobOK(blob, m.Size) {
		prog.event(EventCached)
		return nil
	}
	lock, err := lockFile(ctx, c.cache.lockPath(repo, m.ETag))
	if err != nil {
		return err
	}
	defer lock.Unlock()
	if blobOK(blob, m.Size) { // another pull finished it while we waited
		prog.event(EventCached)
		return nil
	}
	if !verifiable(m.ETag) {
		if err := c.unverified(repo+" "+file, m.ETag); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(blob), 0o755); err != nil {
		return diskFull(err, blob)
	}
	incomplete := blob + ".incomplete"
	u := c.resolveURL(repo, commit, file)
	what := repo + " " + file
	if m.Size >= c.opts.ParallelMin && c.opts.Connections > 1 {
		err = c.fetchParallel(ctx, u, what, incomplete, m.Size, prog)
		if errors.Is(err, errNoRange) {
			err = c.fetchSingle(ctx, u, what, incomplete, m.Size, prog)
		}
	} else {
		err = c.fetchSingle(ctx, u, what, incomplete, m.Size, prog)
	}
	if err != nil {
		return err
	}
	prog.event(EventVerify)
	if err := verifyBlob(incomplete, file, m); err != nil {
		os.Remove(incomplete)
		return err
	}
	if err := os.Rename(incomplete, blob); err != nil {
		return err
	}
	prog.event(EventDone)
	return nil
}

// fetchSingle downloads a file over one connection, resuming from the
// length of the .incomplete file.
func (c *Client) fetchSingle(ctx context.Context, u, what, incomplete string, size int64, prog *fileProgress) error {
	removeParts(incomplete)
	f, err := os.OpenFile(incomplete, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return diskFull(err, incomplete)
	}
	defer f.Close()
	have, err := fileLen(f, size)
	if err != nil {
		return err
	}
	prog.set(have)
	prog.event(EventStart)
	return c.fetchSpan(ctx, u, what, &span{f: f, path: incomplete, end: size, done: have}, size, prog)
}

// unverified refuses a file whose ETag is not a checksum when it would come
// over plain http (unless Options.AllowHTTP), and otherwise names it through
// Options.Notify: only its size can be checked.
func (c *Client) unverified(what, etag string) error {
	if c.endpoint.Scheme == "http" && !c.opts.AllowHTTP {
		return fmt.Errorf("%s: the hub's ETag %.80q is not a checksum and the hub is plain http, so the file %w",
			what, etag, ErrUnverified)
	}
	c.notify(fmt.Sprintf("%s: not verified: the hub's ETag %.80q is not a checksum, only the size is checked", what, etag))
	return nil
}

// blobOK reports whether a complete blob of the given size (-1: any) exists.
func blobOK(path string, size int64) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && (size < 0 || st.Size() == size)
}
