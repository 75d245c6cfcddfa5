package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/mlxrun/mlx/models/hub"
)

// plainEvery is how often a line is printed for a download when the output
// is not a terminal.
const plainEvery = 2 * time.Second

// pullProgress draws the progress of a pull: a bar per file on a terminal,
// a line every plainEvery otherwise.
type pullProgress struct {
	w     io.Writer
	tty   bool
	now   func() time.Time
	bar   *progressbar.ProgressBar
	start time.Time // of the current file
	first int64     // bytes on disk when it started (resume)
	last  time.Time // of the last plain line
	lastN int64
}

func newPullProgress(w io.Writer, tty bool) *pullProgress {
	return &pullProgress{w: w, tty: tty, now: time.Now}
}

func (p *pullProgress) update(ev hub.Progress) {
	name := fmt.Sprintf("[%d/%d] %s", ev.Index, ev.Count, ev.File)
	switch ev.Event {
	case hub.EventCached:
		fmt.Fprintf(p.w, "%s: in the cache (%s)\n", name, formatBytes(ev.Total))
	case hub.EventStart:
		p.start, p.first, p.last, p.lastN = p.now(), ev.Done, p.now(), ev.Done
		if p.tty {
			p.bar = progressbar.NewOptions64(ev.Total, progressbar.OptionSetWriter(p.w),
				progressbar.OptionSetDescription(name), progressbar.OptionShowBytes(true), progressbar.OptionShowCount(),
				progressbar.OptionSetPredictTime(true), progressbar.OptionSetWidth(30),
				progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionShowElapsedTimeOnFinish(),
				progressbar.OptionOnCompletion(func() { fmt.Fprintln(p.w) }))
			p.bar.Set64(ev.Done)
			return
		}
		resumed := ""
		if ev.Done > 0 {
			resumed = fmt.Sprintf(", resuming at %s", formatBytes(ev.Done))
		}
		fmt.Fprintf(p.w, "%s: downloading %s%s\n", name, formatBytes(ev.Total), resumed)
	case hub.EventBytes:
		if p.tty && p.bar != nil {
			p.bar.Set64(ev.Done)
			return
		}
		if now := p.now(); now.Sub(p.last) >= plainEvery {
			rate := float64(ev.Done-p.lastN) / now.Sub(p.last).Seconds()
			fmt.Fprintf(p.w, "%s: %s %s/s\n", name, percent(ev.Done, ev.Total), formatBytes(int64(rate)))
			p.last, p.lastN = now, ev.Done
		}
	case hub.EventVerify:
		if p.tty && p.bar != nil {
			p.bar.Describe(name + " (checking)")
		}
	case hub.EventDone:
		if p.tty && p.bar != nil {
			p.bar.Finish()
			p.bar = nil
			return
		}
		d := p.now().Sub(p.start)
		rate := float64(ev.Done-p.first) / max(d.Seconds(), 1e-3)
		fmt.Fprintf(p.w, "%s: done, %s in %s (%s/s)\n", name, formatBytes(ev.Done),
			d.Round(time.Millisecond), formatBytes(int64(rate)))
	}
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
