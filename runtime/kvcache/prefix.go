package kvcache

import (
	"encoding/binary"
	"hash/maphash"
	"slices"
)

// prefixIndex finds blocks by the tokens they hold and all the tokens
// before them. Every indexed block records the chain hash of the blocks
// before it (its parent) and its own tokens: a full block is found by its
// chain hash, which mixes the parent's with its tokens; any indexed block,
// full or the partial last block of a finished sequence, is found among
// the children of its parent by the longest run of matching tokens.
type prefixIndex struct {
	seed maphash.Seed
	root uint64             // the parent of first blocks
	full map[uint64]int32   // chain hash → full block
	kids map[uint64][]int32 // parent → indexed blocks
	buf  []byte
}

func (x *prefixIndex) init() {
	x.seed = maphash.MakeSeed()
	x.full, x.kids = map[uint64]int32{}, map[uint64][]int32{}
	x.root = x.chain(0, nil)
}

// chain returns the hash of a block of tokens after the chain parent.
func (x *prefixIndex) chain(parent uint64, tokens []int32) uint64 {
	b := binary.LittleEndian.AppendUint64(x.buf[:0], parent)
	for _, t := range tokens {
		b = binary.LittleEndian.AppendUint32(b, uint32(t))
	}
	x.buf = b
	return maphash.Bytes(x.seed, b)
}

// Hash returns the chain hash of the full blocks of tokens (the root hash
// when there is none): equal token prefixes give equal hashes.
func (p *Pool) Hash(tokens []int32) uint64 {
	h := p.root
	for i := 0; i+p.a.bs <= len(tokens); i += p.a.bs {
		h = p.chain(h, tokens[i:i+p.a.bs])
	}
	return h
}

// tokens returns the indexed tokens of block b.
func (p *Pool) tokens(b int32) []int32 {
	o := int(b) * p.a.bs
	return p.toks[o : o+int(p.info[b].n)]
}

// holds reports whether block b is indexed with exactly these tokens after
// parent.
func (p *Pool) holds(b int32, parent uint64, tokens []int32) bool {
	return p.info[b].parent == parent && slices.Equal(p.tokens(b), tokens)
}

// add indexes block b as holding tokens after parent.
func (p *Pool) add(b int32, parent uint64, tokens []int32) {
	in := &p.info[b]
	in.n, in.parent = int32(len(tokens)), parent
	copy(p.toks[int(b)*p.a.bs:], tokens)
	p.kids[parent] = append(p.kids[parent], b)
}

// unindex removes block b from the index.
func (p *Pool) unindex(b int32) {
	in := &p.info[b]
	if in.n == 0 {
		return
	}
	kids := p.kids[in.parent]
	if i := slices.Index(kids, b); i >= 0 {
		kids = slices.Delete(kids, i, i+1)
	}
	if len(kids) == 0 {
		delete(p.kids, in.parent)
	} else {
		p.kids[in.parent] = kids
	}
	if int(in.n) == p.a.bs && p.full[in.hash] == b {
		delete(p.full, in.hash)
	}
	in.n, in.hash, in.parent = 0, 0, 0
}

// Match gives the empty cache c the longest prefix of tokens[:limit] that
// the index holds: the full blocks themselves, shared, then a private copy
// of the indexed block that begins the rest best, if any. It returns how
// many positions of tokens c now holds. For caches with a recurrent state
// the prefix ends where a snapshot was taken (see SetSnapshots), and is
// none without one.
func (p *Pool) Match(c *Cache, tokens []int32, limit int) int {
	switch {
	case len(c.table) > 0:
		return 0
	case p.a.states.elems > 0:
		return p.matchState(c, tokens, limit)
	}
	limit = min(limit, len(tokens))
	hashes := p.shareFull(c, tokens, limit)
	full := len(hashes) - 1
	h, pos := hashes[full], full*p.a.bs
	if full > 0 {
		c.hash, c.indexed = h, c.indexed+full
	}
	if pos < limit {
		pos += p.copyBest(c, h, tokens[pos:min(pos+p.a.bs, limit)])
	}
	return pos
}

// shareFull appends to the empty cache c, shared, the indexed full blocks
// that tokens[:limit] begins with, and returns the chain hashes: the
// root's, then each shared block's.
func (p *Pool) shareFull(c *Cache, tokens []int32, limit int) []uint64 {
	bs := p.a.bs
	hashes := []uint64{p.root}
	for pos := 0; pos+bs <= limit; pos += bs {
		h := hashes[len(hashes)-1]
		hb := p.chain(h, tokens[pos:pos+bs])
		b, ok := p.full[hb]
		if !ok || !p.holds(b, h, tokens[pos:pos+bs]) {
			break
		}
		p.retain(b)
		c.table = append(c.table, b)
		hashes = append(hashes, hb)
	}
	return hashes
}

// copyBest appends to c a copy of the child of parent whose tokens begin
// with the longest run of tokens, and returns that run's length (0 when
// no child matches or no block is left).
func (p *Pool) copyBest(c *Cache, parent uint64, tokens []int32) int {
	best, k := int32(-1), 0
	for _, b := range p.kids[parent] {
		if m := commonPrefix(p.tokens(b), tokens); m > k {
			best, k = b, m
		}
	}
	if best < 0 {
		return 0
	}
	p.retain(best) // so that alloc does not evict it
	nb, ok := p.alloc()
	if ok {
		p.a.Copy(nb, best)
		c.table = append(c.table, nb)
	}
	p.release(best)
	if !ok {
		return 0
	}
	return k
}

// Index adds to the index the full blocks of c that tokens[:n] filled
// (their keys and values computed), after those c already indexed or
// found indexed. A block whose tokens another block already holds stays
// out of the index (it is freed with c).
func (p *Pool) Index(c *Cache, tokens []int32, n int) {
	bs := p.a.bs
	if c.indexed == 0 {
		c.hash = p.root
	}
	for (c.indexed+1)*bs <= min(n, c.Context()) {
		i := c.indexed
		seg := tokens[i*bs : (i+1)*bs]
		hb := p.chain(c.hash, seg)
		if _, dup := p.full[hb]; !dup && p.info[c.table[i]].n == 0 {
			b := c.table[i]
			p.add(b, c.hash, seg)
			p.info[b].hash = hb
			p.full[hb] = b
		}
		c.hash, c.indexed = hb, i+1
	}
}

// Release indexes what c holds of tokens[:n] — its full blocks, and the
// tokens of its last, partial block unless an indexed block already
// begins with them — and snapshots its recurrent state if it has one,
// then drops c's blocks: indexed ones stay cached until
// evicted, the others are free.
func (p *Pool) Release(c *Cache, tokens []int32, n int) {
	p.Snapshot(c, tokens[:n])
	p.Index(c, tokens, n)
	bs, i := p.a.bs, c.indexed
	if n > i*bs && i < len(c.table) && p.info[c.table[i]].n == 0 {
		seg := tokens[i*bs : min(n, (i+1)*bs)]
		if !p.covered(c.hash, seg) {
			p.add(c.table[i], c.hash, seg)
		}
	}
	p.Drop(c)
}

// covered reports whether a child of parent begins with tokens. Cached
// children that tokens begin with (shorter partial blocks) are dropped:
// the block about to be indexed holds what they hold.
func (p *Pool) covered(parent uint64, tokens []int32) bool {
	var shorter []int32
	for _, b := range p.kids[parent] {
		m := commonPrefix(p.tokens(b), tokens)
		if m == len(tokens) {
			return true
		}
		if m == int(p.info[b].n) && p.info[b].ref == 0 {
			shorter = append(shorter, b)
		}
	}
	for _, b := range shorter {
		p.unlink(b)
		p.unindex(b)
		p.free = append(p.free, b)
	}
	return false
}

func commonPrefix(a, b []int32) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
