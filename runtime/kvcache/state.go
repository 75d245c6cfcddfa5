package kvcache

import "fmt"

// stateStore hands out the recurrent states of an arena's caches: one
// buffer of a fixed size per sequence, whatever its length, reused once
// the sequence is dropped.
type stateStore struct {
	elems int
	free  [][]float32
}

// recurrent is a cache's recurrent state and the positions it has consumed.
type recurrent struct {
	buf []float32
	n   int
}

// SetState makes every cache of the arena keep a recurrent state of elems
// float32 values beside its blocks: the conv and delta-rule state of
// linear-attention layers, which a sequence updates in place at each
// position. The blocks of a prefix do not give the state at its end, so
// such caches share only the prefixes of snapshots (see SetSnapshots)
// and Fork copies nothing.
func (a *Arena) SetState(elems int) error {
	if elems < 0 || int64(elems) > MaxBytes/4 {
		return fmt.Errorf("%w: recurrent state of %d values", ErrInvalid, elems)
	}
	a.states = stateStore{elems: elems}
	return nil
}

// StateBytes returns the memory of one cache's recurrent state, 0 when
// the arena keeps none.
func (a *Arena) StateBytes() int64 { return 4 * int64(a.states.elems) }

// State returns c's recurrent state, nil when its arena keeps none, and
// how many positions it has consumed. A cache takes its buffer on the
// first call; its contents are undefined until the caller writes the
// state of position 0.
func (c *Cache) State() ([]float32, int) {
	s := &c.a.states
	if s.elems == 0 {
		return nil, 0
	}
	if c.rec.buf == nil {
		if n := len(s.free); n > 0 {
			c.rec.buf, s.free = s.free[n-1], s.free[:n-1]
		} else {
			c.rec.buf = make([]float32, s.elems)
		}
		c.rec.n = 0
	}
	return c.rec.buf, c.rec.n
}

// SetStateLen records that c's recurrent state has consumed n positions.
func (c *Cache) SetStateLen(n int) { c.rec.n = n }

// dropState gives c's recurrent state back to its arena.
func (c *Cache) dropState() {
	if c.rec.buf != nil {
		c.a.states.free = append(c.a.states.free, c.rec.buf)
	}
	c.rec = recurrent{}
}
