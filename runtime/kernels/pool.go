package kernels

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Pool is a fixed set of worker goroutines that split matmuls (by output
// rows) and other data-parallel loops. The calling goroutine takes part as
// worker 0, so a pool of n threads starts n-1 goroutines. One operation runs
// at a time; concurrent calls wait for each other.
//
// A decode step is hundreds of short operations with a little work on the
// calling goroutine between them, so idle workers watch for the next one
// for a while (spinWait) before they park, and the caller waits for the
// workers by watching a counter: waking a parked goroutine through the
// kernel costs more than many of those operations.
type Pool struct {
	threads int
	mu      sync.Mutex
	workers []*poolWorker // one per started goroutine
	closed  atomic.Bool

	gen     atomic.Uint64 // bumped to publish an operation (or the close)
	pending atomic.Int64  // workers still on the current operation

	// The operation under way, read by the workers.
	kind    jobKind
	next    atomic.Int64
	nchunks int64
	owned   bool       // the job under way takes its chunks from ranges (run)
	ranges  []ownRange // per worker id, for an owned job
	fn      func(i int)
	mm      matmulJob
	parts   []mmPart         // the memory of mm.parts
	scratch []*workerScratch // per worker id

	offload Offload // computes the products it can elsewhere, or nil
}

// poolWorker is the parking place of one started goroutine.
type poolWorker struct {
	parked atomic.Bool   // true while it waits on wake (or is about to)
	wake   chan struct{} // a token per wake-up, buffered 1
}

type jobKind uint8

const (
	jobParallel jobKind = iota
	jobQuantize
	jobMatMul
)

// spinWait is how long an idle worker watches for the next operation
// before it parks, and how long the caller watches the workers before it
// starts yielding its thread between looks.
const spinWait = 200 * time.Microsecond

// NewPool starts a pool of threads workers (at least 1).
func NewPool(threads int) *Pool {
	threads = max(threads, 1)
	p := &Pool{threads: threads, scratch: make([]*workerScratch, threads), ranges: make([]ownRange, threads)}
	for i := range p.scratch {
		p.scratch[i] = new(workerScratch)
	}
	for id := 1; id < threads; id++ {
		w := &poolWorker{wake: make(chan struct{}, 1)}
		p.workers = append(p.workers, w)
		go p.worker(id, w)
	}
	return p
}

// Threads returns the number of workers, the caller included.
func (p *Pool) Threads() int { return p.threads }

// Close stops the worker goroutines. Later calls still work, on the calling
// goroutine alone.
func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed.Swap(true) {
		return
	}
	p.gen.Add(1)
	p.wakeParked()
	p.workers = nil
}

// Parallel runs fn(i) for every i in [0, n) across the pool and returns when
// all are done. fn must be safe to call concurrently and must not call back
// into the pool.
func (p *Pool) Parallel(n int, fn func(i int)) {
	if n <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.kind, p.fn = jobParallel, fn
	p.run(int64(n), false)
	p.fn = nil
}

// ownRange is the chunks [lo, hi) of an owned job that one worker has not
// taken yet, as lo<<32 | hi, alone on its cache line: its owner takes from
// the front and the others, once their own ranges are done, from the back.
type ownRange struct {
	v atomic.Uint64
	_ [56]byte
}

// run executes nchunks chunks of the current job on all workers: taken in
// turn from one counter, or when owned from one contiguous range per
// worker (claim).
func (p *Pool) run(nchunks int64, owned bool) {
	p.nchunks = nchunks
	p.next.Store(0)
	if nchunks == 1 || len(p.workers) == 0 {
		p.owned = false // the caller alone takes them in order
		p.work(0)
		return
	}
	// Ranges hold chunk numbers in 32 bits; a matrix has far fewer chunks
	// (maxElems elements, at least 4 rows of them per chunk).
	p.owned = owned && nchunks < 1<<32
	if p.owned {
		p.splitRanges(nchunks)
	}
	p.pending.Store(int64(len(p.workers)))
	p.gen.Add(1) // publishes the job fields to the workers that see it
	p.wakeParked()
	p.work(0)
	// While the workers finish, let the goroutines queued on this thread
	// run (a caller taking its events, a handler writing them): the idle
	// workers' yields only find the global run queue, not this thread's.
	for i := 1; p.pending.Load() > 0; i++ {
		if i&63 == 0 {
			runtime.Gosched()
		}
	}
}

// wakeParked hands a wake-up token to every worker that parked.
func (p *Pool) wakeParked() {
	for _, w := range p.workers {
		if w.parked.CompareAndSwap(true, false) {
			w.wake <- struct{}{}
		}
	}
}

func (p *Pool) worker(id int, w *poolWorker) {
	var seen uint64
	for {
		seen = p.await(seen, w)
		if p.closed.Load() {
			return
		}
		p.work(id)
		p.pending.Add(-1)
	}
}

// await returns the first generation after seen: watching it for spinWait,
// then parked on w.wake. A worker announces that it parks, then looks once
// more; whoever takes the flag back (itself or wakeParked) settles who
// owes the token.
func (p *Pool) await(seen uint64, w *poolWorker) uint64 {
	var start time.Time
	for i := 1; ; i++ {
		if g := p.gen.Load(); g != seen {
			return g
		}
		if i&255 == 0 {
			if start.IsZero() {
				start = time.Now()
			} else if time.Since(start) > spinWait {
				break
			}
			runtime.Gosched()
		}
	}
	for {
		w.parked.Store(true)
		if g := p.gen.Load(); g != seen {
			if !w.parked.CompareAndSwap(true, false) {
				<-w.wake // wakeParked took the flag: its token is on the way
			}
			return g
		}
		<-w.wake
		if g := p.gen.Load(); g != seen {
			return g
		}
	}
}

func (p *Pool) work(id int) {
	for {
		c := p.claim(id)
		if c < 0 {
			return
		}
		switch p.kind {
		case jobParallel:
			p.fn(int(c))
		case jobQuantize:
			p.quantizeRow(int(c))
		default:
			p.matmulChunk(p.scratch[id], int(c))
		}
	}
}

// splitRanges gives each worker an equal contiguous range of the chunks
// [0, nchunks), in worker order.
func (p *Pool) splitRanges(nchunks int64) {
	t := int64(len(p.ranges))
	for i := range p.ranges {
		lo, hi := int64(i)*nchunks/t, int64(i+1)*nchunks/t
		p.ranges[i].v.Store(uint64(lo)<<32 | uint64(hi))
	}
}

// claim returns the next chunk for worker id, or -1 when none is left. A
// job's chunks are otherwise taken in turn from one counter; an owned job's
// come from the worker's own range first, so that each worker reads one
// stretch of consecutive weights, and then from the back of the others'.
func (p *Pool) claim(id int) int64 {
	if !p.owned {
		if c := p.next.Add(1) - 1; c < p.nchunks {
			return c
		}
		return -1
	}
	if c, ok := p.ranges[id].take(false); ok {
		return c
	}
	for k := 1; k < len(p.ranges); k++ {
		if c, ok := p.ranges[(id+k)%len(p.ranges)].take(true); ok {
			return c
		}
	}
	return -1
}

// take removes the first chunk of the range (the last if back) and
// returns it, or reports false when the range is empty.
func (r *ownRange) take(back bool) (int64, bool) {
	for {
		v := r.v.Load()
		lo, hi := int64(v>>32), int64(v&0xffffffff)
		if lo >= hi {
			return 0, false
		}
		c, nv := lo, uint64(lo+1)<<32|uint64(hi)
		if back {
			c, nv = hi-1, uint64(lo)<<32|uint64(hi-1)
		}
		if r.v.CompareAndSwap(v, nv) {
			return c, true
		}
	}
}
