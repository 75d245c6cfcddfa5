package kvcache

// Pool hands out the blocks of an arena to caches and keeps the blocks
// that finished sequences leave as a prefix cache (see prefix.go). A block
// is free, referenced by one or more caches, or cached: unreferenced but
// indexed by its tokens, on a least-recently-used list from which Alloc
// takes blocks when none is free. A Pool is not safe for concurrent use.
type Pool struct {
	a     *Arena
	free  []int32 // unindexed, unreferenced blocks
	info  []blockInfo
	toks  []int32 // the tokens of indexed block b at [b*bs, b*bs+info[b].n)
	used  int     // blocks referenced by caches
	head  int32   // least recently used cached block, -1 when none
	tail  int32   // most recently used, -1 when none
	cache int     // cached blocks

	prefixIndex
	snaps snapStore // recurrent-state snapshots, for arenas with state
}

// blockInfo is what the pool knows of one block.
type blockInfo struct {
	ref        int32
	prev, next int32 // links of the LRU list while cached
	n          int32 // tokens indexed (0: not indexed); BlockSize for a full block
	parent     uint64
	hash       uint64 // chain hash through this block, for full blocks
}

// NewPool returns a pool of the blocks of a, all free.
func NewPool(a *Arena) *Pool {
	p := &Pool{a: a, free: make([]int32, a.blocks), info: make([]blockInfo, a.blocks),
		toks: make([]int32, a.blocks*a.bs), head: -1, tail: -1}
	for i := range p.free {
		p.free[i] = int32(a.blocks - 1 - i) // block 0 is taken first
	}
	p.prefixIndex.init()
	return p
}

// Arena returns the pool's arena.
func (p *Pool) Arena() *Arena { return p.a }

// Total returns the number of blocks.
func (p *Pool) Total() int { return p.a.blocks }

// Used returns the blocks referenced by caches.
func (p *Pool) Used() int { return p.used }

// Cached returns the unreferenced blocks kept for their prefixes.
func (p *Pool) Cached() int { return p.cache }

// Available returns the blocks Alloc can give: free ones and cached ones.
func (p *Pool) Available() int { return len(p.free) + p.cache }

// alloc takes a free block, or evicts the least recently used cached one;
// false when every block is referenced.
func (p *Pool) alloc() (int32, bool) {
	var b int32
	switch {
	case len(p.free) > 0:
		b = p.free[len(p.free)-1]
		p.free = p.free[:len(p.free)-1]
	case p.head >= 0:
		b = p.head
		p.unlink(b)
		p.unindex(b)
	default:
		return -1, false
	}
	p.info[b].ref = 1
	p.used++
	return b, true
}

// retain adds a reference to block b, taking it off the LRU list.
func (p *Pool) retain(b int32) {
	if p.info[b].ref == 0 {
		p.unlink(b)
		p.used++
	}
	p.info[b].ref++
}

// release drops a reference to block b: an indexed block becomes the most
// recently used cached one, another one free.
func (p *Pool) release(b int32) {
	in := &p.info[b]
	if in.ref--; in.ref > 0 {
		return
	}
	p.used--
	if in.n > 0 {
		p.push(b)
		return
	}
	p.free = append(p.free, b)
}

// push appends cached block b to the LRU list as the most recent.
func (p *Pool) push(b int32) {
	in := &p.info[b]
	in.prev, in.next = p.tail, -1
	if p.tail >= 0 {
		p.info[p.tail].next = b
	} else {
		p.head = b
	}
	p.tail = b
	p.cache++
}

// unlink takes cached block b off the LRU list.
func (p *Pool) unlink(b int32) {
	in := &p.info[b]
	if in.prev >= 0 {
		p.info[in.prev].next = in.next
	} else {
		p.head = in.next
	}
	if in.next >= 0 {
		p.info[in.next].prev = in.prev
	} else {
		p.tail = in.prev
	}
	in.prev, in.next = -1, -1
	p.cache--
}

// Grow gives c blocks until it holds n positions. It returns false when
// the arena has no block left (c keeps those it got).
func (p *Pool) Grow(c *Cache, n int) bool {
	for c.Context() < n {
		b, ok := p.alloc()
		if !ok {
			return false
		}
		c.table = append(c.table, b)
	}
	return true
}

// Fork makes the i-th block of c a copy of the i-th block of src, taking
// a block for it when c has only i blocks. It returns false when c has
// fewer than i blocks, src fewer than i+1, or no block is left, and
// always for caches with a recurrent state.
func (p *Pool) Fork(c, src *Cache, i int) bool {
	if p.a.states.elems > 0 || len(c.table) < i || len(src.table) <= i || len(c.table) > i+1 {
		return false
	}
	if len(c.table) == i {
		b, ok := p.alloc()
		if !ok {
			return false
		}
		c.table = append(c.table, b)
	}
	p.a.Copy(c.table[i], src.table[i])
	return true
}

// Drop releases the blocks of c without indexing anything, and empties it.
func (p *Pool) Drop(c *Cache) {
	for i := len(c.table) - 1; i >= 0; i-- {
		p.release(c.table[i])
	}
	c.table, c.hash, c.indexed = c.table[:0], 0, 0
	c.dropState()
}

// Clone makes the empty cache c a copy of src: it shares src's blocks but
// the last, which it copies, and copies src's recurrent state, so that c
// goes on after src's positions without changing src (it must not write
// positions of the shared blocks). It returns false, with c empty, when
// no block is left for the copy.
func (p *Pool) Clone(c, src *Cache) bool {
	n := len(src.table)
	if len(c.table) != 0 || n == 0 {
		return n == 0 && len(c.table) == 0
	}
	for _, b := range src.table[:n-1] {
		p.retain(b)
		c.table = append(c.table, b)
	}
	b, ok := p.alloc()
	if !ok {
		p.Drop(c)
		return false
	}
	c.table = append(c.table, b)
	p.a.Copy(b, src.table[n-1])
	if s, pos := src.State(); s != nil {
		d, _ := c.State()
		copy(d, s)
		c.SetStateLen(pos)
	}
	return true
}
