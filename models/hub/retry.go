package hub

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// errStall is the cause of a request cancelled because no byte arrived for
// Options.StallTimeout.
var errStall = errors.New("no data received within the stall timeout")

// errNoRange reports a server that answered a range request with the whole
// file.
var errNoRange = errors.New("the server ignores byte ranges")

// maxBackoff caps the delay between two retries.
const maxBackoff = 30 * time.Second

// retryable reports whether err may go away when the request is sent again:
// connection errors, stalls, 5xx, 429 and 408; not a hub that cannot be
// reached or whose certificate does not verify.
func retryable(err error) bool {
	var he *httpError
	var we *writeError
	var cert *tls.CertificateVerificationError
	switch {
	case errors.As(err, &we), errors.As(err, &cert):
		return false
	case errors.Is(err, errStall):
		return true
	case errors.As(err, &he):
		return he.transient()
	}
	for _, permanent := range []error{ErrUnauthorized, ErrNotFound, ErrChecksum, ErrDiskFull,
		ErrProtocol, ErrUnreachable, ErrUnverified, ErrUnknownSize, errNoRange, context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, permanent) {
			return false
		}
	}
	return true
}

// maxMetaRetries caps the retries of a listing or a HEAD: they carry no
// download that a retry would save, and a person waits on them.
const maxMetaRetries = 3

// retry calls fn until it succeeds, fails for good, or has failed limit
// times in a row (Options.Retries when limit is negative); a call that made
// progress resets the count. Delays double from Options.RetryDelay, with
// ±20% jitter, and each retry is announced through Options.Notify.
func (c *Client) retry(ctx context.Context, limit int, fn func() (progressed bool, err error)) error {
	if limit < 0 || limit > c.opts.Retries {
		limit = c.opts.Retries
	}
	fails := 0
	for {
		progressed, err := fn()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil || !retryable(err) {
			return err
		}
		if progressed {
			fails = 0
		}
		if fails >= max(0, limit) {
			return fmt.Errorf("%w (after %d retries)", err, fails)
		}
		delay := min(c.opts.RetryDelay<<min(fails, 20), maxBackoff)
		delay = time.Duration(float64(delay) * (0.8 + 0.4*rand.Float64()))
		fails++
		c.notify(fmt.Sprintf("%v; retrying in %v (retry %d of %d)", err, delay.Round(100*time.Millisecond), fails, limit))
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-time.After(delay):
		}
	}
}

// notify passes a line for a person to Options.Notify, when set.
func (c *Client) notify(msg string) {
	if c.opts.Notify != nil {
		c.opts.Notify(msg)
	}
}
