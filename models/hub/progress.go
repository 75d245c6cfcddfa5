package hub

import (
	"sync"
	"time"
)

// Event says what a Progress report is about.
type Event int

// Progress events, in the order a file goes through them.
const (
	EventStart  Event = iota // the download of a file starts (Done > 0 when it resumes)
	EventBytes               // bytes arrived
	EventVerify              // the checksum is being computed
	EventDone                // the file is complete and verified
	EventCached              // the file was already in the cache
)

// Progress reports the state of one file of a pull. Calls for one pull come
// one at a time.
type Progress struct {
	Repo  string
	File  string // path in the repo
	Event Event
	Done  int64 // bytes on disk
	Total int64 // file size; -1 when unknown
	Index int   // 1-based position of the file in the pull
	Count int   // files in the pull
}

// progressEvery limits EventBytes reports per file.
const progressEvery = 100 * time.Millisecond

// fileProgress aggregates the bytes of the parallel ranges of one file and
// reports them through Options.Progress, at most every progressEvery.
type fileProgress struct {
	mu   *sync.Mutex // shared by the files of one pull
	fn   func(Progress)
	p    Progress
	last time.Time
}

// set changes the bytes done (when resuming) without reporting.
func (fp *fileProgress) set(done int64) {
	fp.mu.Lock()
	fp.p.Done = done
	fp.mu.Unlock()
}

// add counts n new bytes.
func (fp *fileProgress) add(n int64) {
	fp.mu.Lock()
	defer fp.mu.Unlock()
	fp.p.Done += n
	if fp.fn != nil && time.Since(fp.last) >= progressEvery {
		fp.last = time.Now()
		fp.p.Event = EventBytes
		fp.fn(fp.p)
	}
}

// event reports e with the current counts.
func (fp *fileProgress) event(e Event) {
	fp.mu.Lock()
	defer fp.mu.Unlock()
	if e == EventDone || e == EventCached {
		fp.p.Done = max(fp.p.Done, fp.p.Total)
	}
	if fp.fn != nil {
		fp.p.Event = e
		fp.fn(fp.p)
	}
}

// WithProgress returns a client like c that reports the progress of its
// pulls to fn instead: the progress of one request's pull, while c serves
// others.
func (c *Client) WithProgress(fn func(Progress)) *Client {
	cp := *c
	cp.opts.Progress = fn
	return &cp
}
