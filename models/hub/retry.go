package hub

import (
	"context"
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
// connection errors, stalls, 5xx, 429 and 408.
func retryable(err error) bool {
	var he *httpError
	var we *writeError
	switch {
	case errors.As(err, &we):
		return false
	case errors.Is(err, errStall):
		return true
	case errors.As(err, &he):
		return he.transient()
	}
	for _, permanent := range []error{ErrUnauthorized, ErrNotFound, ErrChecksum, ErrDiskFull,
		ErrProtocol, errNoRange, context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, permanent) {
			return false
		}
	}
	return true
}

// retry calls fn until it succeeds, fails for good, or has failed
// Options.Retries times in a row; a call that made progress resets the count.
// Delays double from Options.RetryDelay, with ±20% jitter.
func (c *Client) retry(ctx context.Context, fn func() (progressed bool, err error)) error {
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
		if fails >= max(0, c.opts.Retries) {
			return fmt.Errorf("%w (after %d retries)", err, fails)
		}
		delay := min(c.opts.RetryDelay<<min(fails, 20), maxBackoff)
		delay = time.Duration(float64(delay) * (0.8 + 0.4*rand.Float64()))
		fails++
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-time.After(delay):
		}
	}
}
