package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mlxrun/mlx/models/hub"
)

// TestTerminalProgress feeds events to the bar renderer with a fake clock
// and reads the line a terminal shows after each redraw.
func TestTerminalProgress(t *testing.T) {
	var buf bytes.Buffer
	p := newPullProgress(&buf, true)
	p.width = 100
	now := time.Unix(0, 0)
	p.now = func() time.Time { return now }
	ev := hub.Progress{File: "model.gguf", Index: 1, Count: 2, Total: 10_000_000}
	shown := func(e hub.Event, done int64, dt time.Duration) string {
		now = now.Add(dt)
		ev.Event, ev.Done = e, done
		p.update(ev)
		s := buf.String()
		s = s[strings.LastIndex(strings.TrimSuffix(s, "\n"), "\r")+1:]
		return strings.TrimSuffix(s, "\x1b[K")
	}
	shown(hub.EventStart, 6_000_000, 0) // resumed: 6 MB were on disk
	if got := shown(hub.EventBytes, 7_000_000, time.Second); !strings.Contains(got, " 70% [") ||
		!strings.Contains(got, "7.0 MB/10.0 MB 1.0 MB/s 3s left") {
		t.Errorf("bar after 1 MB in 1 s: %q; want 70%%, 1.0 MB/s (the resumed bytes are not speed) and 3s left", got)
	}
	if got := shown(hub.EventVerify, 10_000_000, 3*time.Second); !strings.Contains(got, "100% [") || !strings.Contains(got, "checking") {
		t.Errorf("bar while checking: %q", got)
	}
	got := shown(hub.EventDone, 10_000_000, 0)
	if strings.Contains(got, "checking") || !strings.Contains(got, "done, 10.0 MB in 4s (1.0 MB/s)") || !strings.HasSuffix(got, "\n") {
		t.Errorf("finished bar: %q; want done, the speed of this run and the end of the line", got)
	}
	if p.bar != nil {
		t.Error("the bar is still open after its file is done")
	}

	buf.Reset()
	p.width = 40
	long := hub.Progress{File: strings.Repeat("shard-", 20) + ".safetensors", Index: 3, Count: 9, Total: 5_000_000}
	for _, e := range []hub.Event{hub.EventStart, hub.EventBytes, hub.EventVerify, hub.EventDone} {
		long.Event, long.Done = e, long.Done+1_000_000
		p.update(long)
	}
	for _, l := range strings.FieldsFunc(buf.String(), func(r rune) bool { return r == '\r' || r == '\n' }) {
		if n := utf8.RuneCountInString(strings.TrimSuffix(l, "\x1b[K")); n >= p.width {
			t.Errorf("a line of %d columns on a terminal of %d: %q", n, p.width, l)
		}
	}
}
