package kvcache

import "slices"

// snapshot is the recurrent state of a sequence after its first n
// positions: the full blocks of those positions end at the chain hash
// parent, and tail holds the tokens after them.
type snapshot struct {
	parent uint64
	tail   []int32
	n      int
	buf    []float32
	used   uint64 // the store's clock when last saved or restored
}

// snapStore keeps up to max snapshots, evicting the least recently used.
type snapStore struct {
	max      int
	clock    uint64
	all      []*snapshot
	byParent map[uint64][]*snapshot
}

// SetSnapshots makes the pool keep up to n snapshots of recurrent state,
// so that caches with such a state (see Arena.SetState) find prefixes:
// Release takes one of what the cache consumed, Snapshot one at any
// point, and Match restores the longest one a new sequence begins with,
// with the KV blocks of its positions.
func (p *Pool) SetSnapshots(n int) {
	p.snaps = snapStore{max: max(n, 0), byParent: map[uint64][]*snapshot{}}
}

// Snapshot saves the recurrent state of c, which has consumed tokens.
// It does nothing when the pool keeps no snapshot or the state is
// elsewhere.
func (p *Pool) Snapshot(c *Cache, tokens []int32) {
	st, n := c.State()
	if p.snaps.max == 0 || st == nil || n != len(tokens) || n == 0 {
		return
	}
	nb := n / p.a.bs
	parent, tail := p.Hash(tokens[:nb*p.a.bs]), tokens[nb*p.a.bs:]
	s := p.snaps.find(parent, tail)
	if s == nil {
		s = p.snaps.take(len(st))
		s.parent, s.tail, s.n = parent, append(s.tail[:0], tail...), n
		p.snaps.byParent[parent] = append(p.snaps.byParent[parent], s)
	}
	copy(s.buf, st)
	p.snaps.clock++
	s.used = p.snaps.clock
}

// find returns the snapshot of those tokens after parent, if kept.
func (x *snapStore) find(parent uint64, tail []int32) *snapshot {
	for _, s := range x.byParent[parent] {
		if slices.Equal(s.tail, tail) {
			return s
		}
	}
	return nil
}

// take returns a snapshot to fill, out of the store's index: a new one
// while the store has room, else the least recently used.
func (x *snapStore) take(elems int) *snapshot {
	if len(x.all) < x.max {
		s := &snapshot{buf: make([]float32, elems)}
		x.all = append(x.all, s)
		return s
	}
	s := x.all[0]
	for _, o := range x.all[1:] {
		if o.used < s.used {
			s = o
		}
	}
	kids := slices.DeleteFunc(x.byParent[s.parent], func(o *snapshot) bool { return o == s })
	if len(kids) == 0 {
		delete(x.byParent, s.parent)
	} else {
		x.byParent[s.parent] = kids
	}
	return s
}

// matchState gives the empty cache c, whose arena keeps recurrent state,
// the longest prefix of tokens[:limit] that a snapshot holds: its state,
// the full blocks of its positions, shared, and a private copy of the
// block of the rest. It returns the positions c now holds.
func (p *Pool) matchState(c *Cache, tokens []int32, limit int) int {
	bs := p.a.bs
	limit = min(limit, len(tokens))
	hashes := p.shareFull(c, tokens, limit)
	for i := len(hashes) - 1; i >= 0; i-- {
		cands := slices.Clone(p.snaps.byParent[hashes[i]])
		slices.SortFunc(cands, func(a, b *snapshot) int { return b.n - a.n })
		for _, s := range cands {
			rest := tokens[i*bs : limit]
			if len(s.tail) <= len(rest) && slices.Equal(s.tail, rest[:len(s.tail)]) && p.restore(c, s, i, hashes[i], tokens) {
				return s.n
			}
		}
	}
	p.Drop(c)
	return 0
}

// restore keeps the first i blocks of c, gives it a private block holding
// the positions of s's tail (copied from c's block i, or from the cached
// block after parent that holds them best) and s's state. It returns
// false, leaving c with at most i blocks, when no block holds the tail.
func (p *Pool) restore(c *Cache, s *snapshot, i int, parent uint64, tokens []int32) bool {
	var priv int32 = -1
	if len(s.tail) > 0 && len(c.table) > i {
		b, ok := p.alloc()
		if !ok {
			p.truncate(c, i)
			return false
		}
		p.a.Copy(b, c.table[i])
		priv = b
	}
	p.truncate(c, i)
	c.hash, c.indexed = parent, i
	switch {
	case priv >= 0:
		c.table = append(c.table, priv)
	case len(s.tail) > 0:
		if p.copyBest(c, parent, s.tail) < len(s.tail) {
			p.truncate(c, i)
			return false
		}
	}
	st, _ := c.State()
	copy(st, s.buf)
	c.SetStateLen(s.n)
	p.snaps.clock++
	s.used = p.snaps.clock
	return true
}

// truncate releases the blocks of c past its first i.
func (p *Pool) truncate(c *Cache, i int) {
	for len(c.table) > i {
		p.release(c.table[len(c.table)-1])
		c.table = c.table[:len(c.table)-1]
	}
}
