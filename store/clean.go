package store

import "time"

// DefaultCleanInterval is how often the cleaner goroutine runs when
// Options.CleanInterval is 0 and the TTL is at least twice as long.
const DefaultCleanInterval = time.Minute

// cleanInterval is the cleaner's period for opts.
func cleanInterval(opts Options) time.Duration {
	if opts.CleanInterval > 0 {
		return opts.CleanInterval
	}
	return max(min(DefaultCleanInterval, opts.TTL/2), time.Millisecond)
}

// Clean removes every expired entry now and returns how many it removed.
// The cleaner goroutine calls it periodically.
func (s *Store[K, V]) Clean() int {
	if s.opts.TTL <= 0 {
		return 0
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for e := s.lru.back(); e != nil && e != &s.lru.root; {
		prev := e.prev
		if e.expired(now) {
			s.remove(e)
			n++
		}
		e = prev
	}
	s.counts.expirations += uint64(n)
	return n
}

// Stop ends the cleaner goroutine and waits for it to return. It is
// idempotent and safe to call concurrently with any other method; the store
// keeps working afterwards, with expired entries removed when looked up.
func (s *Store[K, V]) Stop() {
	if s.stop == nil {
		return
	}
	s.stopOnce.Do(func() { close(s.stop) })
	<-s.done
}

// cleaner calls Clean every interval until Stop.
func (s *Store[K, V]) cleaner(every time.Duration) {
	defer close(s.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.Clean()
		}
	}
}
