// Package sse writes Server-Sent Events: data frames, named events,
// comments and the keep-alive comments that hold an idle stream open. Every
// frame is flushed at once, and the first write or flush error is kept and
// returned by every later call, so a closed connection stops the producer.
package sse

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"sync"
	"time"
)

// ErrClosed reports a write after Close.
var ErrClosed = errors.New("sse: stream closed")

// Writer writes frames to a buffered writer; it is safe for concurrent use.
type Writer struct {
	mu   sync.Mutex
	w    *bufio.Writer
	err  error
	last time.Time
}

// NewWriter returns a Writer on w.
func NewWriter(w *bufio.Writer) *Writer { return &Writer{w: w, last: time.Now()} }

// Data writes a frame "data: <data>" (data must be one line, such as
// compact JSON).
func (s *Writer) Data(data []byte) error { return s.frame("", data) }

// Event writes a named event frame "event: <name>\ndata: <data>".
func (s *Writer) Event(name string, data []byte) error { return s.frame(name, data) }

// Done writes the frame "data: [DONE]" that ends an OpenAI stream.
func (s *Writer) Done() error { return s.frame("", []byte("[DONE]")) }

// Comment writes a comment line ": <text>", which clients ignore.
func (s *Writer) Comment(text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.w.WriteString(": ")
	s.w.WriteString(oneLine(text))
	s.w.WriteString("\n\n")
	return s.flush()
}

func (s *Writer) frame(event string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	if event != "" {
		s.w.WriteString("event: ")
		s.w.WriteString(oneLine(event))
		s.w.WriteByte('\n')
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		s.w.WriteString("data: ")
		s.w.Write(bytes.TrimSuffix(line, []byte("\r")))
		s.w.WriteByte('\n')
	}
	s.w.WriteByte('\n')
	return s.flush()
}

// flush flushes and records the first error; s.mu is held.
func (s *Writer) flush() error {
	if err := s.w.Flush(); err != nil {
		s.err = err
		return err
	}
	s.last = time.Now()
	return nil
}

// Err returns the first write error, nil while the stream is healthy.
func (s *Writer) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close makes later writes fail with ErrClosed (without writing).
func (s *Writer) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = ErrClosed
	}
}

// KeepAlive writes the comment ": keep-alive" whenever nothing was written
// for interval, until ctx is done or a write fails; onErr gets that error.
// It returns at once when interval ≤ 0.
func (s *Writer) KeepAlive(ctx context.Context, interval time.Duration, onErr func(error)) {
	if interval <= 0 {
		return
	}
	t := time.NewTicker(interval / 4)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			s.mu.Lock()
			idle := now.Sub(s.last)
			s.mu.Unlock()
			if idle < interval {
				continue
			}
			if err := s.Comment("keep-alive"); err != nil {
				if !errors.Is(err, ErrClosed) && onErr != nil {
					onErr(err)
				}
				return
			}
		}
	}
}

func oneLine(s string) string {
	if !bytes.ContainsAny([]byte(s), "\r\n") {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if c == '\r' || c == '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}
