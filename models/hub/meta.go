package hub

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// maxFileSize bounds the size the hub may announce for one file (16 TiB).
const maxFileSize = 1 << 44

// fileMeta is what a HEAD of a resolve address tells about a file.
type fileMeta struct {
	Commit string // X-Repo-Commit; may be ""
	ETag   string // blob name: the sha256 of an LFS file, else the git sha1
	Size   int64  // -1 when unknown
}

// fileMeta asks the hub for a file's commit, etag and size with a HEAD that
// follows only relative redirects (a renamed repo), not the one to a CDN:
// the hub's headers are on that redirect.
func (c *Client) fileMeta(ctx context.Context, repo, rev, file string) (fileMeta, error) {
	what := repo + " " + file
	var m fileMeta
	err := c.retry(ctx, maxMetaRetries, func() (bool, error) {
		var err error
		m, err = c.headOnce(ctx, c.resolveURL(repo, rev, file), what)
		return false, err
	})
	return m, err
}

func (c *Client) headOnce(ctx context.Context, u, what string) (fileMeta, error) {
	for hops := 0; ; hops++ {
		resp, err := c.send(ctx, c.head, http.MethodHead, u, nil)
		if err != nil {
			return fileMeta{}, err
		}
		resp.Body.Close()
		size := resp.ContentLength
		switch code := resp.StatusCode; {
		case code >= 300 && code < 400:
			next, err := url.Parse(resp.Header.Get("Location"))
			if err == nil && next.Scheme == "" && next.Host == "" && hops < 5 {
				u = resp.Request.URL.ResolveReference(next).String()
				continue
			}
			size = -1 // the length of the redirect, not of the file
		case code != http.StatusOK:
			return fileMeta{}, statusError(resp, what, c.opts.Token != "")
		}
		return parseMeta(resp.Header, size, what)
	}
}

// parseMeta reads X-Repo-Commit, X-Linked-Etag (else ETag) and X-Linked-Size
// (else the Content-Length given).
func parseMeta(h http.Header, contentLength int64, what string) (fileMeta, error) {
	m := fileMeta{Commit: h.Get("X-Repo-Commit"), Size: -1}
	if m.Commit != "" && !isCommit(m.Commit) {
		return m, fmt.Errorf("%s: X-Repo-Commit %.60q is not a commit hash: %w", what, m.Commit, ErrProtocol)
	}
	m.ETag = normETag(h.Get("X-Linked-Etag"))
	if m.ETag == "" {
		m.ETag = normETag(h.Get("ETag"))
	}
	if !validETag(m.ETag) {
		return m, fmt.Errorf("%s: no usable ETag (%.80q): %w", what, m.ETag, ErrProtocol)
	}
	if s := h.Get("X-Linked-Size"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 || n > maxFileSize {
			return m, fmt.Errorf("%s: bad X-Linked-Size %.40q: %w", what, s, ErrProtocol)
		}
		m.Size = n
	} else if contentLength >= 0 && contentLength <= maxFileSize {
		m.Size = contentLength
	}
	return m, nil
}

// normETag strips the weak marker and the quotes of an ETag.
func normETag(s string) string {
	return strings.Trim(strings.TrimPrefix(strings.TrimSpace(s), "W/"), `"`)
}

// validETag accepts what can safely be a file name in blobs/.
func validETag(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' {
			return false
		}
	}
	return true
}
