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
// state neither find prefixes nor fork blocks: the blocks of a prefix do
// not hold the state at its end.
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
