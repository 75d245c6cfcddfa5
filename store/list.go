package store

import "time"

// entry is one stored value, linked into the store's recency list.
type entry[K comparable, V any] struct {
	prev, next *entry[K, V]
	key        K
	value      V
	size       int64
	expires    time.Time // zero: never
}

// expired reports whether e's TTL has run out at now.
func (e *entry[K, V]) expired(now time.Time) bool {
	return !e.expires.IsZero() && !now.Before(e.expires)
}

// list is an intrusive doubly linked ring with a sentinel root, so that
// moving an entry to the front allocates nothing.
type list[K comparable, V any] struct {
	root entry[K, V]
}

func (l *list[K, V]) init() {
	l.root.next, l.root.prev = &l.root, &l.root
}

// pushFront links e as the most recent entry.
func (l *list[K, V]) pushFront(e *entry[K, V]) {
	e.prev, e.next = &l.root, l.root.next
	e.next.prev = e
	l.root.next = e
}

// remove unlinks e.
func (l *list[K, V]) remove(e *entry[K, V]) {
	e.prev.next, e.next.prev = e.next, e.prev
	e.prev, e.next = nil, nil
}

// moveToFront makes e the most recent entry.
func (l *list[K, V]) moveToFront(e *entry[K, V]) {
	if l.root.next == e {
		return
	}
	l.remove(e)
	l.pushFront(e)
}

// back is the least recent entry, or nil when the list is empty.
func (l *list[K, V]) back() *entry[K, V] {
	if l.root.prev == &l.root {
		return nil
	}
	return l.root.prev
}
