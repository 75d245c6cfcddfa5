package server

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"
)

// ErrClientGone is the cause of a request's context when its client closed
// the connection.
var ErrClientGone = errors.New("the client closed the connection")

// watchConn lets a handler notice that its client went away while it
// computes (fasthttp reads nothing while a handler runs): watch reads the
// connection in the background. Bytes it reads (a pipelined request) are
// kept and handed to the next Read, so nothing is lost.
type watchConn struct {
	net.Conn
	mu      sync.Mutex
	pending []byte

	set       *connSet  // nil: not counted
	busy      bool      // serving a request; set.mu guards it
	idleSince time.Time // set.mu guards it
	closeOnce sync.Once
}

// Close implements net.Conn and forgets the connection in its set.
func (c *watchConn) Close() error {
	err := net.ErrClosed
	c.closeOnce.Do(func() {
		if c.set != nil {
			c.set.remove(c)
		}
		err = c.Conn.Close()
	})
	return err
}

// Read implements net.Conn, serving the bytes a watch read first. The
// server reads only between requests, so a Read makes the connection
// idle.
func (c *watchConn) Read(p []byte) (int, error) {
	if c.set != nil {
		c.set.reading(c)
	}
	c.mu.Lock()
	if len(c.pending) > 0 {
		n := copy(p, c.pending)
		c.pending = c.pending[n:]
		c.mu.Unlock()
		return n, nil
	}
	c.mu.Unlock()
	return c.Conn.Read(p)
}

// watch calls gone when the peer closes the connection or it fails, until
// the returned stop is called; stop waits for the watch to end. A watch
// that receives data stops watching (the client is alive).
func (c *watchConn) watch(gone func()) (stop func()) {
	var stopping bool
	var mu sync.Mutex
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		for {
			n, err := c.Conn.Read(buf)
			if n > 0 {
				c.mu.Lock()
				c.pending = append(c.pending, buf[:n]...)
				c.mu.Unlock()
				return
			}
			if err == nil {
				continue
			}
			mu.Lock()
			s := stopping
			mu.Unlock()
			if s {
				return
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				// A read deadline of the HTTP server: keep watching.
				_ = c.Conn.SetReadDeadline(time.Time{})
				continue
			}
			gone()
			return
		}
	}()
	return func() {
		mu.Lock()
		stopping = true
		mu.Unlock()
		_ = c.Conn.SetReadDeadline(time.Unix(1, 0))
		<-done
		_ = c.Conn.SetReadDeadline(time.Time{})
	}
}

// watchClient returns a context derived from parent that is cancelled
// with ErrClientGone when the client of conn goes away, and a stop
// function that ends the watch and the context. Connections that are not
// watchConns are not watched.
func watchClient(parent context.Context, conn net.Conn) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	wc, ok := conn.(*watchConn)
	if !ok || !interruptible(wc.Conn) {
		return ctx, func() { cancel(nil) }
	}
	stopWatch := wc.watch(func() { cancel(ErrClientGone) })
	return ctx, func() {
		stopWatch()
		cancel(nil)
	}
}

// interruptible reports whether a read deadline set while a Read blocks
// ends that Read, as the net package's sockets guarantee (in-memory pipes
// may not).
func interruptible(c net.Conn) bool {
	switch c.(type) {
	case *net.TCPConn, *net.UnixConn:
		return true
	}
	return false
}
