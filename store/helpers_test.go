package store

import (
	"testing"
	"time"

	"github.com/mlxrun/mlx/store/internal/storetest"
)

// newTest returns a string → int store on a fake clock, stopped at cleanup.
func newTest(t testing.TB, opts Options) (*Store[string, int], *storetest.Clock) {
	t.Helper()
	clock := storetest.NewClock()
	if opts.Now == nil {
		opts.Now = clock.Now
	}
	if opts.CleanInterval == 0 {
		opts.CleanInterval = time.Hour // tests call Clean themselves
	}
	s := New[string, int](opts)
	t.Cleanup(s.Stop)
	return s, clock
}

// order lists the keys from most to least recently used.
func order[K comparable, V any](s *Store[K, V]) []K {
	s.mu.Lock()
	defer s.mu.Unlock()
	var keys []K
	for e := s.lru.root.next; e != &s.lru.root; e = e.next {
		keys = append(keys, e.key)
	}
	return keys
}

// checkInvariants checks that the map and the list agree, that the byte
// count is the sum of the live sizes and that the store is within bounds.
func checkInvariants[K comparable, V any](t *testing.T, s *Store[K, V]) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var n int
	var bytes int64
	for e := s.lru.root.next; e != &s.lru.root; e = e.next {
		n++
		bytes += e.size
		if s.entries[e.key] != e {
			t.Errorf("key %v: list entry is not the map's entry", e.key)
		}
		if e.next.prev != e {
			t.Errorf("key %v: broken back link", e.key)
		}
	}
	if n != len(s.entries) {
		t.Errorf("list holds %d entries, map %d", n, len(s.entries))
	}
	if bytes != s.bytes {
		t.Errorf("bytes = %d, sum of live sizes = %d", s.bytes, bytes)
	}
	if n > max(s.opts.MaxEntries, 0) {
		t.Errorf("%d entries, over the maximum %d", n, s.opts.MaxEntries)
	}
	if s.opts.MaxBytes > 0 && bytes > s.opts.MaxBytes {
		t.Errorf("%d bytes, over the budget %d", bytes, s.opts.MaxBytes)
	}
}

// mustPut puts and fails the test on error.
func mustPut(t testing.TB, s *Store[string, int], key string, v int, size int64) {
	t.Helper()
	if err := s.Put(key, v, size); err != nil {
		t.Fatalf("Put(%q, %d bytes): %v", key, size, err)
	}
}
