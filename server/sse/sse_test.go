package sse

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestFrames(t *testing.T) {
	cases := []struct {
		name  string
		write func(*Writer) error
		want  string
	}{
		{"data", func(w *Writer) error { return w.Data([]byte(`{"a":1}`)) }, "data: {\"a\":1}\n\n"},
		{"multi-line data", func(w *Writer) error { return w.Data([]byte("a\nb")) }, "data: a\ndata: b\n\n"},
		{"event", func(w *Writer) error { return w.Event("error", []byte(`{}`)) }, "event: error\ndata: {}\n\n"},
		{"done", func(w *Writer) error { return w.Done() }, "data: [DONE]\n\n"},
		{"comment", func(w *Writer) error { return w.Comment("keep\nalive") }, ": keep alive\n\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := NewWriter(bufio.NewWriter(&buf))
			if err := c.write(w); err != nil {
				t.Fatal(err)
			}
			if buf.String() != c.want {
				t.Errorf("got %q, want %q", buf.String(), c.want)
			}
		})
	}
}

type failWriter struct{ n int }

var errBroken = errors.New("broken pipe")

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errBroken
	}
	f.n--
	return len(p), nil
}

func TestErrorSticks(t *testing.T) {
	w := NewWriter(bufio.NewWriterSize(&failWriter{n: 1}, 16))
	if err := w.Data([]byte("first")); err != nil {
		t.Fatalf("first frame: %v", err)
	}
	if err := w.Data([]byte("second")); !errors.Is(err, errBroken) {
		t.Fatalf("second frame: got %v, want %v", err, errBroken)
	}
	if err := w.Comment("x"); !errors.Is(err, errBroken) {
		t.Fatalf("after failure: got %v", err)
	}
	if !errors.Is(w.Err(), errBroken) {
		t.Fatalf("Err() = %v", w.Err())
	}
}

func TestClose(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(bufio.NewWriter(&buf))
	w.Close()
	if err := w.Done(); !errors.Is(err, ErrClosed) {
		t.Fatalf("got %v, want ErrClosed", err)
	}
	if buf.Len() != 0 {
		t.Fatalf("wrote %q after Close", buf.String())
	}
}

func TestKeepAlive(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(bufio.NewWriter(&buf))
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Millisecond)
	defer cancel()
	w.KeepAlive(ctx, 20*time.Millisecond, nil)
	w.Close() // no more writes: buf is ours
	n := strings.Count(buf.String(), ": keep-alive\n\n")
	if n < 2 {
		t.Fatalf("got %d keep-alive comments in 120ms at 20ms, want several: %q", n, buf.String())
	}
}

func TestKeepAliveReportsError(t *testing.T) {
	w := NewWriter(bufio.NewWriter(&failWriter{}))
	got := make(chan error, 1)
	w.KeepAlive(context.Background(), 10*time.Millisecond, func(err error) { got <- err })
	if err := <-got; !errors.Is(err, errBroken) {
		t.Fatalf("got %v", err)
	}
}
