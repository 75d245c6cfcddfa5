package kernels

import (
	"sync/atomic"
	"testing"
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
