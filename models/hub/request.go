package hub

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// newRequest builds a request that asks for the bytes as stored (no
// compression) and carries the token only to the hub's own host.
func (c *Client) newRequest(ctx context.Context, method, u string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", c.opts.UserAgent)
	req.Header.Set("Accept-Encoding", "identity")
	if c.opts.Token != "" && req.URL.Host == c.endpoint.Host {
		req.Header.Set("Authorization", "Bearer "+c.opts.Token)
	}
	return req, nil
}

// send does a request under a watchdog: when neither the headers nor a body
// byte arrive for StallTimeout, the request is cancelled and the error
// wraps errStall. The response body resets the watchdog on every read.
func (c *Client) send(ctx context.Context, hc *http.Client, method, u string, header http.Header) (*http.Response, error) {
	rctx, cancel := context.WithCancelCause(ctx)
	timer := time.AfterFunc(c.opts.StallTimeout, func() { cancel(errStall) })
	req, err := c.newRequest(rctx, method, u)
	if err != nil {
		timer.Stop()
		cancel(nil)
		return nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := hc.Do(req)
	if err != nil {
		timer.Stop()
		err = unreachable(u, stallCause(rctx, err))
		cancel(nil)
		return nil, err
	}
	resp.Body = &watchedBody{ReadCloser: resp.Body, ctx: rctx, cancel: cancel, timer: timer, d: c.opts.StallTimeout}
	return resp, nil
}

// stallCause replaces the error of a request cancelled by the watchdog.
func stallCause(ctx context.Context, err error) error {
	if errors.Is(context.Cause(ctx), errStall) {
		return fmt.Errorf("%w (%v)", errStall, err)
	}
	return err
}

// watchedBody is a response body under the watchdog of send.
type watchedBody struct {
	io.ReadCloser
	ctx    context.Context
	cancel context.CancelCauseFunc
	timer  *time.Timer
	d      time.Duration
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.timer.Reset(b.d)
	}
	if err != nil && err != io.EOF {
		err = stallCause(b.ctx, err)
	}
	return n, err
}

func (b *watchedBody) Close() error {
	b.timer.Stop()
	b.cancel(nil)
	return b.ReadCloser.Close()
}

// hubURL joins the endpoint and path elements, escaping each element.
func (c *Client) hubURL(elems ...string) string {
	var b strings.Builder
	b.WriteString(strings.TrimRight(c.endpoint.String(), "/"))
	for _, e := range elems {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(e))
	}
	return b.String()
}

// resolveURL is the address of a file of a repo at a revision.
func (c *Client) resolveURL(repo, rev, file string) string {
	elems := append(strings.Split(repo, "/"), "resolve", rev)
	return c.hubURL(append(elems, strings.Split(file, "/")...)...)
}
