package server

import (
	"errors"
	"net"
	"strconv"
	"sync"
	"time"
)

// Accept backoff: after a failed accept (out of file descriptors, say) the
// listener waits this long, doubling up to the cap, as net/http does.
const (
	acceptRetryMin = 5 * time.Millisecond
	acceptRetryMax = time.Second
)

// busyBody is the answer to a connection beyond the cap when every open
// connection is serving a request.
const busyBody = `{"error":{"message":"The server has too many open connections (mlx serve --max-conns); retry shortly.","type":"server_error","param":null,"code":"too_many_connections"}}`

// listener is the server's net.Listener: it wraps connections in
// watchConns, keeps at most max of them open and retries failed accepts
// instead of stopping the server.
type listener struct {
	net.Listener
	conns *connSet
	sleep func(time.Duration) // time.Sleep; tests replace it
}

// Accept implements net.Listener. Beyond the cap it closes the connection
// idle the longest; when none is idle it answers 503 and closes the new
// one. Temporary errors are retried with backoff; a closed listener ends.
func (l *listener) Accept() (net.Conn, error) {
	var delay time.Duration
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) || !temporary(err) {
				return nil, err
			}
			delay = min(max(2*delay, acceptRetryMin), acceptRetryMax)
			l.sleep(delay)
			continue
		}
		delay = 0
		wc := &watchConn{Conn: c, set: l.conns}
		if victim, ok := l.conns.add(wc); !ok {
			refuse(c)
			continue
		} else if victim != nil {
			victim.Conn.Close()
		}
		return wc, nil
	}
}

// temporary reports whether an accept error may go away by itself: out of
// file descriptors or memory, an aborted handshake, a timeout.
func temporary(err error) bool {
	var t interface{ Temporary() bool }
	if errors.As(err, &t) && t.Temporary() {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// refuse answers 503 on a connection beyond the cap and closes it.
func refuse(c net.Conn) {
	_ = c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
	_, _ = c.Write([]byte("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n" +
		"Connection: close\r\nContent-Length: " + strconv.Itoa(len(busyBody)) + "\r\n\r\n" + busyBody))
	c.Close()
}

// connSet is the open connections of a listener.
type connSet struct {
	max   int
	mu    sync.Mutex
	conns map[*watchConn]struct{}
}

func newConnSet(max int) *connSet { return &connSet{max: max, conns: map[*watchConn]struct{}{}} }

// add registers c. At the cap it picks the connection idle the longest,
// removes it and returns it for the caller to close; ok is false when
// every connection is busy.
func (s *connSet) add(c *watchConn) (victim *watchConn, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c.idleSince = time.Now()
	if len(s.conns) >= s.max {
		for o := range s.conns {
			if !o.busy && (victim == nil || o.idleSince.Before(victim.idleSince)) {
				victim = o
			}
		}
		if victim == nil {
			return nil, false
		}
		delete(s.conns, victim)
	}
	s.conns[c] = struct{}{}
	return victim, true
}

// remove forgets c.
func (s *connSet) remove(c *watchConn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

// open counts the open connections.
func (s *connSet) open() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// begin marks c as serving a request: from the handler's start until the
// server reads c again for the next request, after the response is
// written, c is never closed to make room.
func (s *connSet) begin(c *watchConn) {
	s.mu.Lock()
	c.busy = true
	s.mu.Unlock()
}

// reading marks c as idle: the server waits for its next request.
func (s *connSet) reading(c *watchConn) {
	s.mu.Lock()
	if c.busy {
		c.busy = false
		c.idleSince = time.Now()
	}
	s.mu.Unlock()
}
