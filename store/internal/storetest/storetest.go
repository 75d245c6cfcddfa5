// Package storetest holds helpers for the stores' tests: a settable clock.
package storetest

import (
	"sync"
	"time"
)

// Start is the time a new Clock reads.
var Start = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// Clock is a time that moves only when Advance is called; safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock that reads Start.
func NewClock() *Clock { return &Clock{t: Start} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Err drops a result and keeps the error, to check several calls in one table.
func Err[T any](_ T, err error) error { return err }
