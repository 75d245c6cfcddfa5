package kvcache

import (
	"errors"
	"testing"
)

// TestRecurrentState checks that caches take a state of the arena's size,
// give it back when dropped for the next cache to reuse, and that an
// arena without state hands out none.
func TestRecurrentState(t *testing.T) {
	p := newTestPool(t, 8)
	if st, _ := p.Arena().NewCache().State(); st != nil {
		t.Fatalf("arena without state: State() = %d values", len(st))
	}
	if err := p.Arena().SetState(-1); !errors.Is(err, ErrInvalid) {
		t.Errorf("SetState(-1): %v, want ErrInvalid", err)
	}
	if err := p.Arena().SetState(10); err != nil {
		t.Fatal(err)
	}
	if got := p.Arena().StateBytes(); got != 40 {
		t.Errorf("StateBytes() = %d, want 40", got)
	}
	c := p.Arena().NewCache()
	st, n := c.State()
	if len(st) != 10 || n != 0 {
		t.Fatalf("new cache: %d values at position %d, want 10 at 0", len(st), n)
	}
	c.SetStateLen(7)
	if again, n := c.State(); &again[0] != &st[0] || n != 7 {
		t.Errorf("second State(): another buffer or position %d, want the same at 7", n)
	}
	p.Drop(c)
	if _, n := c.State(); n != 0 {
		t.Errorf("dropped cache's state at position %d, want 0", n)
	}
	p.Drop(c)
	d := p.Arena().NewCache()
	if reused, n := d.State(); &reused[0] != &st[0] || n != 0 {
		t.Errorf("next cache: a new buffer or position %d, want the dropped one at 0", n)
	}
}

// TestRecurrentStateSharesNoPrefix checks that caches with a recurrent
// state, in a pool that keeps no snapshot, neither find prefixes nor fork
// blocks: the blocks of a prefix do not hold the state at its end.
func TestRecurrentStateSharesNoPrefix(t *testing.T) {
	p := newTestPool(t, 8)
	if err := p.Arena().SetState(4); err != nil {
		t.Fatal(err)
	}
	tokens := []int32{1, 2, 3, 4, 5, 6, 7, 8, 9}
	if found := run(t, p, tokens); found != 0 {
		t.Fatalf("first run found %d positions", found)
	}
	if found := run(t, p, tokens); found != 0 {
		t.Errorf("second run found %d positions of its prefix, want 0", found)
	}
	src := p.Arena().NewCache()
	compute(t, p, src, tokens, 0)
	if c := p.Arena().NewCache(); p.Fork(c, src, 0) {
		t.Error("Fork copied a block of a cache with recurrent state")
	}
}

// withState returns a test pool whose caches keep a state of 3 values
// and which keeps up to snaps snapshots of them.
func withState(t *testing.T, blocks, snaps int) *Pool {
	t.Helper()
	p := newTestPool(t, blocks)
	if err := p.Arena().SetState(3); err != nil {
		t.Fatal(err)
	}
	p.SetSnapshots(snaps)
	return p
}

// consume computes tokens in a new cache as compute does, and sets its
// state to mark, as if it had consumed them.
func consume(t *testing.T, p *Pool, tokens []int32, mark float32) *Cache {
	t.Helper()
	c := p.Arena().NewCache()
	compute(t, p, c, tokens, 0)
	st, _ := c.State()
	for i := range st {
		st[i] = mark
	}
	c.SetStateLen(len(tokens))
	return c
}

// checkRestored checks that c holds the keys of tokens[:n] and the state
// mark after n positions.
func checkRestored(t *testing.T, c *Cache, tokens []int32, n int, mark float32) {
	t.Helper()
	for pos := range n {
		_, k := c.KeyBlock(0, 0, pos/testBS)
		if k[pos%testBS] != float32(tokens[pos]) {
			t.Errorf("position %d holds key %v, want %d", pos, k[pos%testBS], tokens[pos])
		}
	}
	st, at := c.State()
	if at != n || st[0] != mark || st[2] != mark {
		t.Errorf("state %v after %d positions, want %v after %d", st, at, mark, n)
	}
}

// TestSnapshots checks that a sequence beginning with what a released
// cache consumed gets its state and its keys, from shared full blocks and
// a private copy of the last one; that a snapshot taken mid-way is found
// too; and that the least recently used snapshot goes first.
func TestSnapshots(t *testing.T) {
	p := withState(t, 16, 2)
	first := []int32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	c := consume(t, p, first[:6], 6)
	p.Snapshot(c, first[:6])
	c.SetStateLen(0)
	compute(t, p, c, first, 6) // the rest, then its state at the end
	st, _ := c.State()
	st[0], st[1], st[2] = 10, 10, 10
	c.SetStateLen(10)
	last := c.Table()[2]
	p.Release(c, first, 10)

	next := append(append([]int32{}, first...), 11, 12, 13)
	d := p.Arena().NewCache()
	if got := p.Match(d, next, len(next)-1); got != 10 {
		t.Fatalf("Match found %d positions, want the 10 of the released cache", got)
	}
	checkRestored(t, d, next, 10, 10)
	if len(d.Table()) != 3 || d.Table()[2] == last {
		t.Errorf("blocks %v: want 3, the last a private copy", d.Table())
	}
	p.Drop(d)

	// A sequence that leaves the first one after 7 tokens gets the
	// snapshot after 6.
	other := []int32{1, 2, 3, 4, 5, 6, 7, 99, 98}
	e := p.Arena().NewCache()
	if got := p.Match(e, other, len(other)-1); got != 6 {
		t.Fatalf("diverging sequence: Match found %d positions, want 6", got)
	}
	checkRestored(t, e, other, 6, 6)
	p.Drop(e)

	// Two more snapshots evict the least recently used (after 10: the
	// one after 6 was restored since).
	for i, toks := range [][]int32{{50, 51, 52}, {60, 61, 62}} {
		p.Release(consume(t, p, toks, float32(i)), toks, 3)
	}
	for _, tt := range []struct {
		tokens []int32
		want   int
	}{{next, 0}, {other, 0}, {[]int32{60, 61, 62, 63}, 3}} {
		f := p.Arena().NewCache()
		if got := p.Match(f, tt.tokens, len(tt.tokens)-1); got != tt.want {
			t.Errorf("after eviction, %v: Match found %d positions, want %d", tt.tokens, got, tt.want)
		}
		p.Drop(f)
	}
}
