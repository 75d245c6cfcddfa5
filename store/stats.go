package store

// counters are the store's running totals, guarded by its mutex.
type counters struct {
	hits, misses, evictions, expirations uint64
}

// Stats is a snapshot of a store's size, bounds and counters, for metrics.
type Stats struct {
	Entries     int    // live entries (some may have expired and not yet been removed)
	Bytes       int64  // sum of the entries' sizes
	MaxEntries  int    // Options.MaxEntries; 0: disabled
	MaxBytes    int64  // Options.MaxBytes; 0: no byte budget
	Hits        uint64 // Get calls that found a live entry
	Misses      uint64 // Get calls that did not
	Evictions   uint64 // entries removed to make room
	Expirations uint64 // entries removed because their TTL ran out
}

// Stats returns a consistent snapshot of the store's counters.
func (s *Store[K, V]) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{
		Entries:     len(s.entries),
		Bytes:       s.bytes,
		MaxEntries:  max(s.opts.MaxEntries, 0),
		MaxBytes:    max(s.opts.MaxBytes, 0),
		Hits:        s.counts.hits,
		Misses:      s.counts.misses,
		Evictions:   s.counts.evictions,
		Expirations: s.counts.expirations,
	}
}
