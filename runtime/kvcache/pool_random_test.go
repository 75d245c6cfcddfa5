package kvcache

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPoolRandomOperations runs random sequences over a small pool —
// matches, growth, indexing, releases, forks and drops — and checks after
// every operation that each block is free, cached or referenced exactly as
// the caches hold it, and that every cache holds its tokens.
func TestPoolRandomOperations(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	p := newTestPool(t, 12)
	type live struct {
		c      *Cache
		tokens []int32
		done   int
	}
	var caches []*live
	prefixes := [][]int32{seq(1, 9), seq(40, 6), append(seq(1, 5), 77, 78, 79)}
	for step := range 3000 {
		switch op := rng.IntN(6); {
		case op <= 1 && len(caches) < 4: // a new sequence after a known prefix
			base := prefixes[rng.IntN(len(prefixes))]
			tokens := append(slices.Clone(base[:rng.IntN(len(base))+1]), seq(100+rng.IntN(3), rng.IntN(6))...)
			l := &live{c: p.Arena().NewCache(), tokens: tokens}
			l.done = p.Match(l.c, tokens, len(tokens)-1)
			if l.done < len(tokens)-1 && len(caches) > 0 {
				src := caches[rng.IntN(len(caches))]
				i := l.done / testBS
				if m := min(commonPrefix(src.tokens[:src.done], tokens[:len(tokens)-1]), (i+1)*testBS); m > l.done && p.Fork(l.c, src.c, i) {
					l.done = m
				}
			}
			caches = append(caches, l)
		case op <= 3 && len(caches) > 0: // compute a few tokens
			l := caches[rng.IntN(len(caches))]
			n := min(l.done+1+rng.IntN(5), len(l.tokens))
			if p.Grow(l.c, n) {
				computeRange(l.c, l.tokens, l.done, n)
				l.done = n
				p.Index(l.c, l.tokens, n)
			}
			if l.done == len(l.tokens) {
				l.tokens = append(l.tokens, int32(200+rng.IntN(4)))
			}
		case op == 4 && len(caches) > 0: // end one
			i := rng.IntN(len(caches))
			l := caches[i]
			if rng.IntN(4) == 0 {
				p.Drop(l.c)
			} else {
				p.Release(l.c, l.tokens, l.done)
			}
			caches = slices.Delete(caches, i, i+1)
		}
		var tables [][]int32
		for _, l := range caches {
			tables = append(tables, l.c.Table())
			if got := storedTokens(l.c, l.done); !slices.Equal(got, l.tokens[:l.done]) {
				t.Fatalf("step %d: a cache holds %v, want %v", step, got, l.tokens[:l.done])
			}
		}
		checkPool(t, p, tables)
	}
}

// computeRange stores tokens[from:to] as their keys.
func computeRange(c *Cache, tokens []int32, from, to int) {
	for pos := from; pos < to; pos++ {
		x := float32(tokens[pos])
		c.Store(0, pos, []float32{x, x}, []float32{x, -x}, nil)
	}
}

// checkPool checks the pool's counts, references, LRU list and index
// against the block tables of the live caches.
func checkPool(t *testing.T, p *Pool, tables [][]int32) {
	t.Helper()
	refs := make([]int32, p.Total())
	for _, tb := range tables {
		for _, b := range tb {
			refs[b]++
		}
	}
	used, cached := 0, 0
	for b, in := range p.info {
		if in.ref != refs[b] {
			t.Fatalf("block %d: %d references, the caches hold %d", b, in.ref, refs[b])
		}
		switch {
		case in.ref > 0:
			used++
		case in.n > 0:
			cached++
		}
	}
	lru := 0
	for b := p.head; b >= 0; b = p.info[b].next {
		if p.info[b].ref != 0 || p.info[b].n == 0 {
			t.Fatalf("block %d on the LRU list with %d references and %d tokens", b, p.info[b].ref, p.info[b].n)
		}
		lru++
	}
	for _, b := range p.free {
		if p.info[b].ref != 0 || p.info[b].n != 0 {
			t.Fatalf("free block %d has %d references and %d tokens", b, p.info[b].ref, p.info[b].n)
		}
	}
	if used != p.Used() || cached != p.Cached() || lru != cached || used+cached+len(p.free) != p.Total() {
		t.Fatalf("%d used (pool says %d), %d cached (%d, %d listed), %d free of %d", used, p.Used(), cached, p.Cached(), lru, len(p.free), p.Total())
	}
	for h, b := range p.full {
		if p.info[b].hash != h || int(p.info[b].n) != testBS {
			t.Fatalf("full block %d indexed under a hash that is not its own", b)
		}
	}
}
