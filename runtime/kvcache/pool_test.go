package kvcache

import (
	"slices"
	"testing"
)

const testBS = 4 // positions per block of the test pools

// newTestPool returns a pool of blocks of testBS positions, one layer and
// one head of two float32 values.
func newTestPool(t *testing.T, blocks int) *Pool {
	t.Helper()
	a, err := NewArena(F32, 1, 1, 2, testBS, blocks)
	if err != nil {
		t.Fatal(err)
	}
	return NewPool(a)
}

// compute gives c blocks for tokens[from:] and stores, as the key of each
// position, its token, as a forward pass would store its key.
func compute(t *testing.T, p *Pool, c *Cache, tokens []int32, from int) {
	t.Helper()
	if !p.Grow(c, len(tokens)) {
		t.Fatalf("no block left for %d positions (%d used of %d)", len(tokens), p.Used(), p.Total())
	}
	for pos := from; pos < len(tokens); pos++ {
		x := float32(tokens[pos])
		c.Store(0, pos, []float32{x, x}, []float32{x, -x}, nil)
	}
}

// run computes tokens in a new cache after what the index holds of them,
// and releases it; it returns the positions found.
func run(t *testing.T, p *Pool, tokens []int32) int {
	t.Helper()
	c := p.Arena().NewCache()
	found := p.Match(c, tokens, len(tokens)-1)
	compute(t, p, c, tokens, found)
	p.Release(c, tokens, len(tokens))
	return found
}

// storedTokens reads back the first n keys of c as tokens.
func storedTokens(c *Cache, n int) []int32 {
	out := make([]int32, n)
	for pos := range n {
		_, k := c.KeyBlock(0, 0, pos/testBS)
		out[pos] = int32(k[pos%testBS])
	}
	return out
}

func seq(from, n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(from + i)
	}
	return out
}

func TestGrowAndDrop(t *testing.T) {
	p := newTestPool(t, 3)
	c, d := p.Arena().NewCache(), p.Arena().NewCache()
	if !p.Grow(c, 5) || c.Context() != 8 || p.Used() != 2 || p.Available() != 1 {
		t.Fatalf("after 5 positions: context %d, %d used, %d available", c.Context(), p.Used(), p.Available())
	}
	if p.Grow(d, 8) || d.Context() != 4 || p.Available() != 0 {
		t.Errorf("8 positions with one block left: context %d, %d available", d.Context(), p.Available())
	}
	p.Drop(c)
	p.Drop(d)
	if p.Used() != 0 || p.Available() != 3 || p.Cached() != 0 || c.Context() != 0 {
		t.Errorf("after Drop: %d used, %d available, %d cached", p.Used(), p.Available(), p.Cached())
	}
}

func TestHashChainsBlocks(t *testing.T) {
	p := newTestPool(t, 1)
	a := seq(1, 10)
	tests := []struct {
		name  string
		other []int32
		same  bool
	}{
		{"equal", slices.Clone(a), true},
		{"differs after the last full block", append(slices.Clone(a[:8]), 99, 98), true},
		{"differs in the first block", append([]int32{0}, a[1:]...), false},
		{"differs in the second block", append(slices.Clone(a[:7]), 99, 9, 10), false},
		{"shorter by a block", a[:4], false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := p.Hash(tt.other) == p.Hash(a); got != tt.same {
				t.Errorf("equal hashes %v, want %v", got, tt.same)
			}
		})
	}
}

// TestMatch indexes one sequence of 10 tokens (two full blocks and a
// partial one), then matches other prompts against it.
func TestMatch(t *testing.T) {
	base := seq(100, 10)
	tests := []struct {
		name   string
		prompt []int32
		limit  int
		want   int
	}{
		{"same prompt", base, 9, 9},
		{"longer prompt", append(slices.Clone(base), 1, 2, 3), 12, 10},
		{"diverges in the second block", append(slices.Clone(base[:6]), 7, 7, 7), 8, 6},
		{"diverges in the first block", append(slices.Clone(base[:2]), 7, 7, 7, 7, 7), 6, 2},
		{"nothing in common", seq(1, 9), 8, 0},
		{"limit inside a full block", base, 6, 6},
		{"limit on a block boundary", base, 8, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newTestPool(t, 8)
			run(t, p, base)
			c := p.Arena().NewCache()
			got := p.Match(c, tt.prompt, tt.limit)
			if got != tt.want {
				t.Fatalf("Match found %d positions, want %d", got, tt.want)
			}
			if stored := storedTokens(c, got); !slices.Equal(stored, tt.prompt[:got]) {
				t.Errorf("the cache holds %v, want %v", stored, tt.prompt[:got])
			}
			p.Drop(c)
			if p.Used() != 0 {
				t.Errorf("%d blocks still used", p.Used())
			}
		})
	}
}

// TestSharedBlocksAreCounted checks the references of blocks two caches
// share, and that the partial block is copied, not shared.
func TestSharedBlocksAreCounted(t *testing.T) {
	p := newTestPool(t, 8)
	tokens := seq(1, 10)
	run(t, p, tokens)
	c, d := p.Arena().NewCache(), p.Arena().NewCache()
	p.Match(c, tokens, 9)
	p.Match(d, tokens, 9)
	shared := 0
	for i := range c.Table() {
		if c.Table()[i] == d.Table()[i] {
			shared++
		}
	}
	if shared != 2 || len(c.Table()) != 3 || p.Used() != 4 {
		t.Fatalf("%d shared blocks of %d, %d used; want the 2 full blocks shared and 4 used", shared, len(c.Table()), p.Used())
	}
	p.Drop(c)
	if p.Used() != 3 {
		t.Errorf("after one cache is dropped: %d used, want 3", p.Used())
	}
	compute(t, p, d, tokens, 9)
	p.Release(d, tokens, 10)
	if p.Used() != 0 || p.Cached() != 3 {
		t.Errorf("after both: %d used, %d cached; want 0 and 3", p.Used(), p.Cached())
	}
}

// TestEvictionLeastRecentlyUsed fills the arena with two cached
// sequences, uses the first again, then needs blocks: the second
// sequence's are evicted, leaves first.
func TestEvictionLeastRecentlyUsed(t *testing.T) {
	p := newTestPool(t, 4)
	a, b := seq(1, 8), seq(50, 8)
	run(t, p, a)
	run(t, p, b)
	if p.Cached() != 4 || p.Available() != 4 {
		t.Fatalf("%d cached, %d available; want 4 and 4", p.Cached(), p.Available())
	}
	d := p.Arena().NewCache()
	if got := p.Match(d, a, 8); got != 8 {
		t.Fatalf("a again found %d positions, want 8", got)
	}
	p.Drop(d)
	c := p.Arena().NewCache()
	if !p.Grow(c, 4) {
		t.Fatal("no block for 4 positions")
	}
	_, first := p.full[p.Hash(b[:4])]
	_, second := p.full[p.Hash(b)]
	if !first || second {
		t.Errorf("after one eviction b's first block indexed %v, second %v; want the second evicted first", first, second)
	}
	if !p.Grow(c, 8) {
		t.Fatal("no block for 8 positions")
	}
	if got := p.Match(d, b, 8); got != 0 {
		t.Errorf("b after two evictions: %d positions, want 0", got)
	}
	if got := p.Match(d, a, 8); got != 8 {
		t.Errorf("a: %d positions, want 8", got)
	}
	if p.Grow(d, 12) {
		t.Error("grew beyond the arena")
	}
}

// TestIndexKeepsOneCopy computes the same tokens twice at once: only the
// first cache's blocks are indexed, the second's are freed.
func TestIndexKeepsOneCopy(t *testing.T) {
	p := newTestPool(t, 8)
	tokens := seq(1, 6)
	c, d := p.Arena().NewCache(), p.Arena().NewCache()
	compute(t, p, c, tokens, 0)
	compute(t, p, d, tokens, 0)
	p.Release(c, tokens, 6)
	p.Release(d, tokens, 6)
	if p.Cached() != 2 || p.Used() != 0 {
		t.Errorf("%d cached, %d used; want one full and one partial block cached", p.Cached(), p.Used())
	}
	run(t, p, seq(1, 7))
	if p.Cached() != 2 {
		t.Errorf("after a longer partial block: %d cached, want 2 (the shorter one dropped)", p.Cached())
	}
}

// TestFork copies the partial block of a running cache into another one
// that shares its full blocks.
func TestFork(t *testing.T) {
	p := newTestPool(t, 8)
	tokens := seq(1, 7)
	src := p.Arena().NewCache()
	compute(t, p, src, tokens, 0)
	p.Index(src, tokens, 7)
	c := p.Arena().NewCache()
	if got := p.Match(c, tokens, 6); got != 4 {
		t.Fatalf("Match found %d positions, want the full block's 4", got)
	}
	if p.Fork(c, src, 2) || !p.Fork(c, src, 1) || !p.Fork(c, src, 1) {
		t.Fatal("Fork of block 2 succeeded or of block 1 failed")
	}
	if stored := storedTokens(c, 7); !slices.Equal(stored, tokens) {
		t.Errorf("the fork holds %v, want %v", stored, tokens)
	}
	if len(c.Table()) != 2 || c.Table()[0] != src.Table()[0] || c.Table()[1] == src.Table()[1] || p.Used() != 3 {
		t.Errorf("tables %v and %v, %d used; want the first block shared, the second copied", c.Table(), src.Table(), p.Used())
	}
}
