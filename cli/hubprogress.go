package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/mlxrun/mlx/models/hub"
)

// plainEvery is how often a line is printed for a download when the output
// is not a terminal.
const plainEvery = 2 * time.Second

// barCells is the width of the bar between its brackets.
const barCells = 24

// minNameWidth is the least of a file's name a bar's line shows beside the
// meter.
const minNameWidth = 16

// pullProgress draws the progress of a pull: a bar per file, redrawn in
// place on a terminal, a line every plainEvery otherwise. Speeds count the
// bytes of this run only, not those a resumed download already had.
type pullProgress struct {
	w     io.Writer
	tty   bool
	width int // columns of the terminal; a bar's line stays narrower
	now   func() time.Time
	// bar is the file whose bar is on the terminal's current line, nil
	// when the cursor is at the start of a line.
	bar   *fileBar
	start time.Time // of the current file
	first int64     // bytes on disk when it started (resume)
	last  time.Time // of the last plain line
	lastN int64
}

// fileBar is what a file's bar shows besides its counts.
type fileBar struct {
	name     string
	checking bool // the checksum is being computed
}

func newPullProgress(w io.Writer, tty bool) *pullProgress {
	return &pullProgress{w: w, tty: tty, width: termWidth(w), now: time.Now}
}

// termWidth returns the columns of the terminal w is, 80 when unknown.
func termWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	return 80
}

func (p *pullProgress) update(ev hub.Progress) {
	name := fmt.Sprintf("[%d/%d] %s", ev.Index, ev.Count, ev.File)
	switch ev.Event {
	case hub.EventCached:
		fmt.Fprintf(p.w, "%s: in the cache (%s)\n", name, formatBytes(ev.Total))
	case hub.EventStart:
		p.start, p.first, p.last, p.lastN = p.now(), ev.Done, p.now(), ev.Done
		if p.tty {
			p.bar = &fileBar{name: name}
			p.draw(ev)
			return
		}
		resumed := ""
		if ev.Done > 0 {
			resumed = fmt.Sprintf(", resuming at %s", formatBytes(ev.Done))
		}
		fmt.Fprintf(p.w, "%s: downloading %s%s\n", name, formatBytes(ev.Total), resumed)
	case hub.EventBytes:
		if p.tty {
			p.draw(ev)
			return
		}
		if now := p.now(); now.Sub(p.last) >= plainEvery {
			rate := float64(ev.Done-p.lastN) / now.Sub(p.last).Seconds()
			fmt.Fprintf(p.w, "%s: %s %s/s\n", name, percent(ev.Done, ev.Total), formatBytes(int64(rate)))
			p.last, p.lastN = now, ev.Done
		}
	case hub.EventVerify:
		if p.tty && p.bar != nil {
			p.bar.checking = true
			p.draw(ev)
		}
	case hub.EventDone:
		if p.tty {
			p.draw(ev)
			fmt.Fprintln(p.w)
			p.bar = nil
			return
		}
		fmt.Fprintf(p.w, "%s: done, %s\n", name, p.summary(ev.Done))
	}
}

// draw writes the bar's line again over the current one.
func (p *pullProgress) draw(ev hub.Progress) {
	if p.bar == nil {
		return
	}
	var tail string
	switch {
	case ev.Event == hub.EventDone:
		tail = "done, " + p.summary(ev.Done)
	case p.bar.checking:
		tail = formatBytes(ev.Done) + ", checking"
	default:
		tail = formatBytes(ev.Done)
		if ev.Total > 0 {
			tail += "/" + formatBytes(ev.Total)
		}
		if rate := p.rate(ev.Done); rate > 0 {
			tail += fmt.Sprintf(" %s/s", formatBytes(int64(rate)))
			if ev.Total > ev.Done {
				left := time.Duration(float64(ev.Total-ev.Done) / rate * float64(time.Second))
				tail += fmt.Sprintf(" %s left", left.Round(time.Second))
			}
		}
	}
	rest := tail
	if ev.Total > 0 {
		pct := fmt.Sprintf("%3.0f%%", 100*float64(ev.Done)/float64(ev.Total))
		rest = pct + " [" + meter(ev.Done, ev.Total) + "] " + tail
		if p.room(rest) < minNameWidth {
			rest = pct + " " + tail // the meter goes first on a narrow terminal
		}
	}
	line := fitLeft(p.bar.name, max(p.room(rest), minNameWidth)) + " " + rest
	fmt.Fprintf(p.w, "\r%s\x1b[K", fitLeft(line, p.width-1))
}

// room is how much of a file's name fits on a bar's line beside rest,
// leaving the last column free so that the terminal does not wrap.
func (p *pullProgress) room(rest string) int {
	return p.width - 1 - utf8.RuneCountInString(rest) - 1
}

// rate is the speed of the current file in bytes/s, from the bytes this
// run fetched; 0 until some arrived.
func (p *pullProgress) rate(done int64) float64 {
	secs := p.now().Sub(p.start).Seconds()
	if secs <= 0 || done <= p.first {
		return 0
	}
	return float64(done-p.first) / secs
}

// summary says how much of a finished file this run fetched, in how long.
func (p *pullProgress) summary(done int64) string {
	d := p.now().Sub(p.start)
	rate := float64(done-p.first) / max(d.Seconds(), 1e-3)
	return fmt.Sprintf("%s in %s (%s/s)", formatBytes(done), d.Round(time.Millisecond), formatBytes(int64(rate)))
}

// meter draws done/total as barCells cells.
func meter(done, total int64) string {
	n := int(min(max(done, 0), total) * barCells / total)
	if n == barCells {
		return strings.Repeat("=", n)
	}
	return strings.Repeat("=", n) + ">" + strings.Repeat(" ", barCells-n-1)
}

// fitLeft cuts s to at most n characters, keeping its start and marking
// the cut with "…".
func fitLeft(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 1 {
		return ""
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// percent formats done/total, or the bytes when the total is unknown.
func percent(done, total int64) string {
	if total <= 0 {
		return formatBytes(done)
	}
	return fmt.Sprintf("%3.0f%%", 100*float64(done)/float64(total))
}

// formatBytes writes a size in decimal units ("1.2 GB").
func formatBytes(n int64) string {
	if n < 0 {
		return "unknown size"
	}
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGTP"[exp])
}
