package kernels

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

func TestParallelRunsEachIndexOnce(t *testing.T) {
	for _, threads := range []int{0, 1, 2, 5} {
		p := NewPool(threads)
		if p.Threads() != max(threads, 1) {
			t.Errorf("Threads() = %d for NewPool(%d)", p.Threads(), threads)
		}
		for _, n := range []int{0, 1, 3, 100} {
			counts := make([]atomic.Int32, n)
			p.Parallel(n, func(i int) { counts[i].Add(1) })
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Fatalf("threads=%d n=%d: index %d ran %d times", threads, n, i, c)
				}
			}
		}
		p.Close()
	}
}

// TestParallelAcrossParking runs operations after gaps shorter and longer
// than spinWait, so that workers are caught spinning, parking and parked:
// every index runs once each time, and the pool still works once closed.
func TestParallelAcrossParking(t *testing.T) {
	for _, threads := range []int{2, 4} {
		p := NewPool(threads)
		gaps := []time.Duration{0, time.Microsecond, spinWait / 2, spinWait, 2 * spinWait, 3 * time.Millisecond}
		for i := range 300 {
			if g := gaps[i%len(gaps)]; g > 0 {
				time.Sleep(g)
			}
			n := 1 + i%9
			counts := make([]atomic.Int32, n)
			p.Parallel(n, func(j int) { counts[j].Add(1) })
			for j := range counts {
				if c := counts[j].Load(); c != 1 {
					t.Fatalf("threads=%d op %d: index %d ran %d times", threads, i, j, c)
				}
			}
		}
		p.Close()
		p.Close()
		var ran atomic.Int32
		p.Parallel(5, func(int) { ran.Add(1) })
		if ran.Load() != 5 {
			t.Fatalf("threads=%d: after Close, %d of 5 indexes ran", threads, ran.Load())
		}
	}
}

// TestOwnedRunsEachChunkOnce runs owned jobs whose chunks sleep at random,
// so that workers finish their own ranges at different times and take
// from the others', and wants every chunk run exactly once; also on a
// closed pool, where the caller runs them all.
func TestOwnedRunsEachChunkOnce(t *testing.T) {
	rng := newRand(29)
	for _, threads := range []int{1, 2, 3} {
		for _, closed := range []bool{false, true} {
			p := NewPool(threads)
			if closed {
				p.Close()
			}
			for _, n := range []int{1, 2, 3, 7, 100} {
				counts := make([]atomic.Int32, n)
				sleeps := make([]time.Duration, n)
				for i := range sleeps {
					sleeps[i] = time.Duration(rng.IntN(200)) * time.Microsecond
				}
				p.mu.Lock()
				p.kind = jobParallel
				p.fn = func(i int) {
					time.Sleep(sleeps[i])
					counts[i].Add(1)
				}
				p.run(int64(n), true)
				p.fn = nil
				p.mu.Unlock()
				for i := range counts {
					if c := counts[i].Load(); c != 1 {
						t.Fatalf("threads=%d closed=%v n=%d: chunk %d ran %d times", threads, closed, n, i, c)
					}
				}
			}
			p.Close()
		}
	}
}

// TestClaimOrder checks the order in which one worker takes the chunks of
// an owned job: its own range from the front, then the others' from the
// back, the next worker's first.
func TestClaimOrder(t *testing.T) {
	p := NewPool(3)
	defer p.Close()
	p.mu.Lock() // keeps the idle workers out: no job is published
	defer p.mu.Unlock()
	p.owned = true
	defer func() { p.owned = false }()
	p.splitRanges(10) // [0,3) [3,6) [6,10)
	var got []int64
	for c := p.claim(1); c >= 0; c = p.claim(1) {
		got = append(got, c)
	}
	want := []int64{3, 4, 5, 9, 8, 7, 6, 2, 1, 0}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("worker 1 took %v, want %v", got, want)
	}
	var r ownRange
	if _, ok := r.take(false); ok {
		t.Error("take from an empty range succeeded")
	}
	r.v.Store(5<<32 | 7)
	if c, ok := r.take(true); !ok || c != 6 {
		t.Errorf("take(back) = %d, %v; want 6", c, ok)
	}
	if c, ok := r.take(false); !ok || c != 5 {
		t.Errorf("take(front) = %d, %v; want 5", c, ok)
	}
	if _, ok := r.take(true); ok {
		t.Error("take after the range emptied succeeded")
	}
}
