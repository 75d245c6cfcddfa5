package hub

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"syscall"
)

// ErrUnreachable reports a hub that cannot be reached at all: its host name
// does not resolve, nothing listens at its address, or there is no route to
// it. Retrying does not help, so it fails at once.
var ErrUnreachable = errors.New("cannot reach the hub")

// unreachableError is a request that failed before any byte was exchanged,
// for a reason that lasts.
type unreachableError struct {
	Host string // host (and port) of the address asked for
	Why  string // what went wrong, in words
	err  error
}

func (e *unreachableError) Error() string {
	return fmt.Sprintf("cannot reach %s: %s", e.Host, e.Why)
}

func (e *unreachableError) Unwrap() []error { return []error{ErrUnreachable, e.err} }

// unreachable returns err as an unreachableError when it is a lasting
// failure to connect: a name that does not resolve, a refused connection,
// no route to the host. Other errors come back as they are.
func unreachable(rawURL string, err error) error {
	why := ""
	var dns *net.DNSError
	switch {
	case errors.As(err, &dns) && dns.IsTimeout:
		why = "looking up its name timed out (is the network down?)"
	case errors.As(err, &dns):
		why = "its name does not resolve (" + dns.Err + ")"
	case errors.Is(err, syscall.ECONNREFUSED):
		why = "connection refused"
	case errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH):
		why = "no route to it (is the network down?)"
	default:
		return err
	}
	host := rawURL
	var ue *url.Error
	if errors.As(err, &ue) {
		rawURL = ue.URL
	}
	if u, perr := url.Parse(rawURL); perr == nil && u.Host != "" {
		host = u.Host
	}
	return &unreachableError{Host: host, Why: why, err: err}
}
