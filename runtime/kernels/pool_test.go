package kernels

import (
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

func TestCountCores(t *testing.T) {
	tests := []struct {
		name, text string
		want       int
	}{
		{"hyperthreads", "processor\t: 0\nphysical id\t: 0\ncore id\t\t: 0\n\nprocessor\t: 1\nphysical id\t: 0\ncore id\t\t: 0\n\nprocessor\t: 2\nphysical id\t: 0\ncore id\t\t: 1\n", 2},
		{"two sockets", "physical id : 0\ncore id : 0\nphysical id : 1\ncore id : 0\n", 2},
		{"no core ids", "processor : 0\nprocessor : 1\n", 0},
	}
	for _, tt := range tests {
		if got := countCores([]byte(tt.text)); got != tt.want {
			t.Errorf("%s: countCores = %d, want %d", tt.name, got, tt.want)
		}
	}
	if n := PhysicalCores(); n < 1 {
		t.Errorf("PhysicalCores() = %d", n)
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
// from the others', and wants every chunk run exactly once.
func TestOwnedRunsEachChunkOnce(t *testing.T) {
	rng := newRand(29)
	for _, threads := range []int{1, 2, 3} {
		p := NewPool(threads)
		for _, n := range []int{1, 2, 3, 7, 100} {
			counts := make([]atomic.Int32, n)
			sleeps := make([]time.Duration, n)
			for i := range sleeps {
				sleeps[i] = time.Duration(rng.IntN(200)) * time.Microsecond
			}
			p.mu.Lock()
			p.kind, p.owned = jobParallel, true
			p.fn = func(i int) {
				time.Sleep(sleeps[i])
				counts[i].Add(1)
			}
			p.run(int64(n))
			p.owned, p.fn = false, nil
			p.mu.Unlock()
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Fatalf("threads=%d n=%d: chunk %d ran %d times", threads, n, i, c)
				}
			}
		}
		p.Close()
	}
}
