package store

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestConcurrentUse runs writers, readers, resizers, deleters, the cleaner
// and Stop together (run it with -race), then checks the invariants.
func TestConcurrentUse(t *testing.T) {
	const (
		workers = 16
		ops     = 2000
		keys    = 256
	)
	s, clock := newTest(t, Options{MaxEntries: 64, MaxBytes: 40000, TTL: time.Second, CleanInterval: time.Millisecond})
	var gets atomic.Uint64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for range ops {
				key := strconv.Itoa(r.IntN(keys))
				switch op := r.IntN(100); {
				case op < 40:
					s.Put(key, w, r.Int64N(1000))
				case op < 80:
					gets.Add(1)
					if v, ok := s.Get(key); ok && (v < 0 || v >= workers) {
						t.Errorf("Get(%s) = %d, a value never stored", key, v)
					}
				case op < 88:
					s.Resize(key, r.Int64N(1000))
				case op < 96:
					s.Delete(key)
				case op < 98:
					s.Peek(key)
				case op < 99:
					clock.Advance(time.Second / 4)
				default:
					s.Stats()
				}
			}
		})
	}
	wg.Go(s.Stop)
	wg.Wait()
	checkInvariants(t, s)
	t.Logf("%+v", s.Stats())
	if st := s.Stats(); st.Hits+st.Misses != gets.Load() {
		t.Errorf("hits %d + misses %d != %d gets", st.Hits, st.Misses, gets.Load())
	}
}
