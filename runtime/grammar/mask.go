package grammar

// maskMemo keeps the masks of the last few states: a matcher inside a
// long string or number comes back to the same state token after token.
type maskMemo struct {
	ids   [memoSize]int32
	masks [memoSize][]uint64
	next  int
}

const memoSize = 8

func (c *maskMemo) clear() {
	for i := range c.ids {
		c.ids[i] = -1
	}
}

func (c *maskMemo) get(id int32) []uint64 {
	for i, x := range c.ids {
		if x == id {
			return c.masks[i]
		}
	}
	return nil
}

func (c *maskMemo) put(id int32, mask []uint64) {
	i := c.next
	c.next = (c.next + 1) % memoSize
	c.ids[i] = id
	c.masks[i] = append(c.masks[i][:0], mask...)
}

// fill sets in bits (cleared by the caller) the tokens allowed in state id.
func (m *machine) fill(bits []uint64, id int32) error {
	if memo := m.masks.get(id); memo != nil {
		copy(bits, memo)
		return nil
	}
	if err := m.walk(bits, 0, id); err != nil {
		return err
	}
	if m.st[id].accepting() {
		for _, e := range m.v.eog {
			bits[e>>6] |= 1 << (e & 63)
		}
	}
	m.masks.put(id, bits[:m.v.words])
	return nil
}

// walk visits the children of trie node n reached in state id: a child
// whose byte no stack takes is cut with its subtree; a child reached in a
// state that loops on every byte of its subtree is accepted whole.
func (m *machine) walk(bits []uint64, n, id int32) error {
	v := m.v
	end := v.first[n] + int32(v.count[n])
	for c := v.first[n]; c < end; c++ {
		nid, err := m.next(id, v.label[c])
		if err != nil {
			return err
		}
		if nid < 0 {
			continue
		}
		lo, mid := v.lo[c], v.lo[c]+v.own[c]
		setBits(bits, v.order[lo:mid])
		if v.count[c] == 0 {
			continue
		}
		cover, limit, err := m.covers(nid, c)
		if err != nil {
			return err
		}
		switch cover {
		case coverAll:
			if d := v.dense[c]; d != nil {
				orBits(bits, d)
			} else {
				setBits(bits, v.order[mid:v.hi[c]])
			}
			continue
		case coverShort:
			limit += int32(v.pathRunes[c])
			for i := mid; i < v.hi[c]; i++ {
				if int32(v.tokRunes[i]) <= limit {
					id := v.order[i]
					bits[id>>6] |= 1 << (id & 63)
				}
			}
			continue
		}
		if err := m.walk(bits, c, nid); err != nil {
			return err
		}
	}
	return nil
}

// How the tokens below a trie node are decided without walking.
const (
	coverNone  = iota // walk the subtree
	coverAll          // every token is accepted
	coverShort        // the tokens of at most limit more code points are
)

// covers tells whether the tokens below trie node c, reached in state id,
// can be decided at once from the state's loop set and the node's byte
// summary: all of them, or (when the state takes only so many loop code
// points in a row and none after) those short enough.
// In a state with a pending UTF-8 prefix, the loop set is that of the
// clean state every completion of the prefix leads to, if there is one.
func (m *machine) covers(id, c int32) (cover int, limit int32, err error) {
	if m.v.hi[c]-m.v.lo[c] < minCover {
		return coverNone, 0, nil
	}
	p := m.st[id].p
	if p.need != 0 {
		t, err := m.target(id)
		if err != nil || t < 0 {
			return coverNone, 0, err
		}
		id = t
	}
	l, err := m.chain(id)
	if err != nil {
		return coverNone, 0, err
	}
	s := &m.v.sum[c]
	if s.ascii[0]&^l.ascii[0] != 0 || s.ascii[1]&^l.ascii[1] != 0 {
		return coverNone, 0, nil
	}
	if p.need != 0 && l.high != highAll || l.depth == 0 {
		return coverNone, 0, nil
	}
	if s.high && (l.high != highAll || s.utf8&(1<<p.utf8State()) == 0) {
		return coverNone, 0, nil
	}
	switch {
	case l.depth < 0 || int32(m.v.runes[c]) <= l.depth:
		return coverAll, 0, nil
	case l.closed:
		return coverShort, l.depth, nil
	}
	return coverNone, 0, nil
}

// minCover is the smallest subtree worth the loop check.
const minCover = 1

func setBits(bits []uint64, ids []int32) {
	for _, id := range ids {
		bits[id>>6] |= 1 << (id & 63)
	}
}

func orBits(dst, src []uint64) {
	dst = dst[:len(src)]
	for i, w := range src {
		dst[i] |= w
	}
}
