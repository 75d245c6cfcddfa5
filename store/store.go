// Package store holds bounded in-memory stores: a generic least-recently-used
// cache with an entry count, a byte budget and a time to live, on which the
// response and conversation stores of the HTTP API are built (sub-packages
// responses and conversations). Nothing is written to disk.
package store

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

var (
	// ErrDisabled is returned by writes to a store whose MaxEntries is 0.
	ErrDisabled = errors.New("store: disabled")
	// ErrTooLarge reports an entry larger than the store's whole byte budget.
	ErrTooLarge = errors.New("store: entry too large")
	// ErrBadSize reports a negative entry size.
	ErrBadSize = errors.New("store: negative entry size")
	// ErrNotFound reports a key that is not in the store: never stored,
	// deleted, evicted or expired.
	ErrNotFound = errors.New("store: not found")
)

// Options bound a Store.
type Options struct {
	// MaxEntries is the most entries the store holds; 0 (or less) disables
	// the store: writes return ErrDisabled and reads miss.
	MaxEntries int
	// MaxBytes is the byte budget, the sum of the sizes given to Put and
	// Resize; 0 (or less) means no byte budget.
	MaxBytes int64
	// TTL is how long an entry lives after its last write (Put or Resize);
	// 0 (or less) means entries never expire. Reads do not extend it.
	TTL time.Duration
	// CleanInterval is how often the cleaner goroutine removes expired
	// entries; 0 means DefaultCleanInterval, or TTL/2 when that is shorter.
	CleanInterval time.Duration
	// Now is the clock; nil means time.Now. Tests inject a fake one.
	Now func() time.Time
}

// Store is a bounded, concurrency-safe map from K to V. When a write takes
// it over MaxEntries or MaxBytes it evicts the least recently used entries.
// Entries expire TTL after their last write: lazily when they are looked up,
// and periodically in a cleaner goroutine that Stop ends.
type Store[K comparable, V any] struct {
	opts Options
	now  func() time.Time

	mu      sync.Mutex
	entries map[K]*entry[K, V]
	lru     list[K, V] // front: most recently used
	bytes   int64
	counts  counters

	stopOnce sync.Once
	stop     chan struct{} // nil when there is no cleaner
	done     chan struct{} // closed when the cleaner has returned
}

// New returns an empty store bounded by opts. When opts.MaxEntries > 0 and
// opts.TTL > 0 it starts a cleaner goroutine; call Stop to end it.
func New[K comparable, V any](opts Options) *Store[K, V] {
	s := &Store[K, V]{opts: opts, now: opts.Now, entries: make(map[K]*entry[K, V])}
	if s.now == nil {
		s.now = time.Now
	}
	s.lru.init()
	if opts.MaxEntries > 0 && opts.TTL > 0 {
		s.stop = make(chan struct{})
		s.done = make(chan struct{})
		go s.cleaner(cleanInterval(opts))
	}
	return s
}

// Put stores value under key with the given size in bytes, replacing any
// earlier value and making it the most recently used entry. It returns
// ErrDisabled, ErrBadSize or ErrTooLarge (size over MaxBytes), and then
// leaves the store unchanged.
func (s *Store[K, V]) Put(key K, value V, size int64) error {
	if err := s.check(size); err != nil {
		return err
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.live(key, now)
	if e != nil {
		s.bytes -= e.size
		s.lru.moveToFront(e)
	} else {
		if len(s.entries) >= s.opts.MaxEntries {
			e = s.removeOldest(now) // reused below: no allocation once full
		}
		if e == nil {
			e = new(entry[K, V])
		}
		e.key = key
		s.entries[key] = e
		s.lru.pushFront(e)
	}
	e.value, e.size, e.expires = value, size, s.expiry(now)
	s.bytes += size
	s.shrink(now)
	return nil
}

// Get returns the value under key and makes it the most recently used
// entry. It counts a hit or a miss; an expired entry is removed and misses.
func (s *Store[K, V]) Get(key K) (V, bool) {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.live(key, now)
	if e == nil {
		s.counts.misses++
		var zero V
		return zero, false
	}
	s.counts.hits++
	s.lru.moveToFront(e)
	return e.value, true
}

// Peek is Get without refreshing recency and without counting a hit or a
// miss. An expired entry is still removed.
func (s *Store[K, V]) Peek(key K) (V, bool) {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.live(key, now); e != nil {
		return e.value, true
	}
	var zero V
	return zero, false
}

// Delete removes key and reports whether a live entry was there.
func (s *Store[K, V]) Delete(key K) bool {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.live(key, now)
	if e != nil {
		s.remove(e)
	}
	return e != nil
}

// Resize sets the size of the entry under key, as after its value grew or
// shrank in place, makes it the most recently used entry and restarts its
// TTL; other entries are evicted if the store is now over budget. It returns
// ErrNotFound, ErrDisabled, ErrBadSize or ErrTooLarge, and then changes nothing.
func (s *Store[K, V]) Resize(key K, size int64) error {
	if err := s.check(size); err != nil {
		return err
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.live(key, now)
	if e == nil {
		return ErrNotFound
	}
	s.bytes += size - e.size
	e.size, e.expires = size, s.expiry(now)
	s.lru.moveToFront(e)
	s.shrink(now)
	return nil
}

// check refuses a write of size bytes that the store cannot hold.
func (s *Store[K, V]) check(size int64) error {
	switch {
	case s.opts.MaxEntries <= 0:
		return ErrDisabled
	case size < 0:
		return fmt.Errorf("%w: %d bytes", ErrBadSize, size)
	case s.opts.MaxBytes > 0 && size > s.opts.MaxBytes:
		return fmt.Errorf("%w: %d bytes is over the store's budget of %d bytes", ErrTooLarge, size, s.opts.MaxBytes)
	}
	return nil
}

// live returns the unexpired entry under key, or nil, removing it if it has
// expired. s.mu is held.
func (s *Store[K, V]) live(key K, now time.Time) *entry[K, V] {
	e := s.entries[key]
	if e == nil {
		return nil
	}
	if e.expired(now) {
		s.remove(e)
		s.counts.expirations++
		return nil
	}
	return e
}

// shrink evicts least recently used entries until the store is within its
// bounds. The entry just written is at the front and fits alone, so it stays.
// s.mu is held.
func (s *Store[K, V]) shrink(now time.Time) {
	for len(s.entries) > s.opts.MaxEntries || (s.opts.MaxBytes > 0 && s.bytes > s.opts.MaxBytes) {
		s.removeOldest(now)
	}
}

// removeOldest removes the least recently used entry, counting it as
// expired or evicted, and returns it (nil when the store is empty). s.mu is held.
func (s *Store[K, V]) removeOldest(now time.Time) *entry[K, V] {
	e := s.lru.back()
	if e == nil {
		return nil
	}
	if e.expired(now) {
		s.counts.expirations++
	} else {
		s.counts.evictions++
	}
	s.remove(e)
	return e
}

// remove unlinks e and drops its value. s.mu is held.
func (s *Store[K, V]) remove(e *entry[K, V]) {
	delete(s.entries, e.key)
	s.lru.remove(e)
	s.bytes -= e.size
	var zero V
	e.value, e.size = zero, 0
}

// expiry is when an entry written at now expires; zero for no TTL.
func (s *Store[K, V]) expiry(now time.Time) time.Time {
	if s.opts.TTL <= 0 {
		return time.Time{}
	}
	return now.Add(s.opts.TTL)
}
