package kernels

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Pool is a fixed set of worker goroutines that split matmuls (by output
// rows) and other data-parallel loops. The calling goroutine takes part as
// worker 0, so a pool of n threads starts n-1 goroutines. One operation runs
// at a time; concurrent calls wait for each other.
type Pool struct {
	threads int
	mu      sync.Mutex
	wake    []chan struct{} // one per started goroutine
	wg      sync.WaitGroup
	closed  bool

	// The operation under way, read by the workers.
	kind    jobKind
	next    atomic.Int64
	nchunks int64
	fn      func(i int)
	mm      matmulJob
	scratch []*workerScratch // per worker id
}

type jobKind uint8

const (
	jobParallel jobKind = iota
	jobQuantize
	jobMatMul
)

// spinRounds is how many times an idle worker polls for new work, yielding
// in between, before it parks on its channel.
const spinRounds = 64

// NewPool starts a pool of threads workers (at least 1).
func NewPool(threads int) *Pool {
	threads = max(threads, 1)
	p := &Pool{threads: threads, scratch: make([]*workerScratch, threads)}
	for i := range p.scratch {
		p.scratch[i] = new(workerScratch)
	}
	for id := 1; id < threads; id++ {
		ch := make(chan struct{}, 1)
		p.wake = append(p.wake, ch)
		go p.worker(id, ch)
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
	if p.closed {
		return
	}
	p.closed = true
	for _, ch := range p.wake {
		close(ch)
	}
	p.wake = nil
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
	p.run(int64(n))
	p.fn = nil
}

// run executes nchunks chunks of the current job on all workers.
func (p *Pool) run(nchunks int64) {
	p.nchunks = nchunks
	p.next.Store(0)
	helpers := min(len(p.wake), int(nchunks)-1)
	p.wg.Add(helpers)
	for _, ch := range p.wake[:helpers] {
		ch <- struct{}{}
	}
	p.work(0)
	p.wg.Wait()
}

func (p *Pool) worker(id int, wake chan struct{}) {
	for {
		if !park(wake) {
			return
		}
		p.work(id)
		p.wg.Done()
	}
}

// park waits for a wake-up, spinning briefly first; it reports false once
// the channel is closed.
func park(wake chan struct{}) bool {
	for range spinRounds {
		select {
		case _, ok := <-wake:
			return ok
		default:
			runtime.Gosched()
		}
	}
	_, ok := <-wake
	return ok
}

func (p *Pool) work(id int) {
	for {
		c := p.next.Add(1) - 1
		if c >= p.nchunks {
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
