package store

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

func TestLazyExpiry(t *testing.T) {
	const ttl = 10 * time.Second
	tests := []struct {
		name    string
		advance time.Duration // after the put
		read    func(s *Store[string, int]) bool
		wantOK  bool
	}{
		{"get before", ttl - 1, func(s *Store[string, int]) bool { _, ok := s.Get("k"); return ok }, true},
		{"get at ttl", ttl, func(s *Store[string, int]) bool { _, ok := s.Get("k"); return ok }, false},
		{"peek at ttl", ttl, func(s *Store[string, int]) bool { _, ok := s.Peek("k"); return ok }, false},
		{"delete at ttl", ttl, func(s *Store[string, int]) bool { return s.Delete("k") }, false},
		{"resize at ttl", ttl, func(s *Store[string, int]) bool { return s.Resize("k", 1) == nil }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, clock := newTest(t, Options{MaxEntries: 4, TTL: ttl})
			mustPut(t, s, "k", 1, 7)
			clock.Advance(tt.advance)
			if ok := tt.read(s); ok != tt.wantOK {
				t.Errorf("found = %v, want %v", ok, tt.wantOK)
			}
			st := s.Stats()
			wantExp := uint64(1)
			if tt.wantOK {
				wantExp = 0
			}
			if st.Expirations != wantExp {
				t.Errorf("expirations = %d, want %d", st.Expirations, wantExp)
			}
			checkInvariants(t, s)
		})
	}
}

func TestReadsDoNotExtendTTL(t *testing.T) {
	s, clock := newTest(t, Options{MaxEntries: 4, TTL: 10 * time.Second})
	mustPut(t, s, "read", 1, 1)
	mustPut(t, s, "written", 1, 1)
	clock.Advance(6 * time.Second)
	s.Get("read")
	if err := s.Resize("written", 2); err != nil {
		t.Fatal(err)
	}
	clock.Advance(6 * time.Second)
	if _, ok := s.Get("read"); ok {
		t.Error("a Get extended the TTL")
	}
	if _, ok := s.Get("written"); !ok {
		t.Error("Resize did not restart the TTL")
	}
}

func TestClean(t *testing.T) {
	s, clock := newTest(t, Options{MaxEntries: 10, TTL: 10 * time.Second})
	for i, k := range []string{"a", "b", "c", "d"} {
		mustPut(t, s, k, i, 10)
		clock.Advance(time.Second)
	}
	s.Get("a")                     // the oldest write is now the most recently used
	clock.Advance(7 * time.Second) // at 11 s: a, b expired; c, d not
	if n := s.Clean(); n != 2 {
		t.Errorf("Clean removed %d, want 2", n)
	}
	st := s.Stats()
	if st.Entries != 2 || st.Bytes != 20 || st.Expirations != 2 {
		t.Errorf("after Clean: %+v", st)
	}
	checkInvariants(t, s)
}

func TestCleanerGoroutine(t *testing.T) {
	s, clock := newTest(t, Options{MaxEntries: 10, TTL: time.Second, CleanInterval: time.Millisecond})
	mustPut(t, s, "a", 1, 1)
	mustPut(t, s, "b", 2, 1)
	clock.Advance(time.Second)
	waitFor(t, "the cleaner to remove both entries", func() bool { return s.Stats().Expirations == 2 })
	checkInvariants(t, s)
}

func TestStopConcurrentAndIdempotent(t *testing.T) {
	s, clock := newTest(t, Options{MaxEntries: 8, TTL: time.Second, CleanInterval: time.Millisecond})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 200 {
				s.Put(string(rune('a'+j%10)), i, 1)
				s.Get(string(rune('a' + j%10)))
				if j == 100 {
					s.Stop()
				}
			}
		})
	}
	wg.Wait()
	s.Stop()
	// Still usable after Stop, with lazy expiry.
	mustPut(t, s, "z", 1, 1)
	if _, ok := s.Get("z"); !ok {
		t.Error("Get after Stop missed")
	}
	clock.Advance(time.Second)
	if _, ok := s.Get("z"); ok {
		t.Error("an expired entry was returned after Stop")
	}
	checkInvariants(t, s)
}

func TestStopEndsCleaner(t *testing.T) {
	const n = 20
	base := runtime.NumGoroutine()
	stores := make([]*Store[int, int], n)
	for i := range stores {
		stores[i] = New[int, int](Options{MaxEntries: 1, TTL: time.Hour})
	}
	if got := runtime.NumGoroutine(); got < base+n {
		t.Fatalf("%d goroutines with %d cleaners, baseline %d", got, n, base)
	}
	for _, s := range stores {
		s.Stop()
	}
	waitFor(t, "the cleaners to end", func() bool { return runtime.NumGoroutine() <= base })
	// Stores without a TTL or disabled start no goroutine.
	New[int, int](Options{MaxEntries: 1})
	New[int, int](Options{TTL: time.Hour})
	if got := runtime.NumGoroutine(); got > base {
		t.Errorf("%d goroutines, baseline %d: a store without a TTL started a cleaner", got, base)
	}
}

// waitFor polls cond for up to 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}
