package grammar

// fill sets in bits (cleared by the caller) the tokens allowed in state id.
func (m *machine) fill(bits []uint64, id int32) error {
	if m.masks.get(id, bits, m.v.allowable) {
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
	m.masks.put(id, bits[:m.v.words], m.v.allowable)
	return nil
}

// walk visits the children of trie node n reached in state id: a child
// whose byte no stack takes is cut with its subtree; a child reached in a
// state that loops on every byte of its subtree is accepted whole.
func (m *machine) walk(bits []uint64, n, id int32) error {
	v := m.v
	end := v.first[n] + int32(v.count[n])
	var l *loopInfo
	u := 0
	if end-v.first[n] > 1 {
		var err error
		if l, u, err = m.walkLoop(id); err != nil {
			return err
		}
	}
	for c := v.first[n]; c < end; c++ {
		if l != nil && v.loops(l, c, u) {
			m.setSubtree(bits, c, v.lo[c])
			continue
		}
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
			m.setSubtree(bits, c, mid)
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

// setSubtree sets the tokens of the subtree of trie node c from order[from]
// on: those below c, and those ending at c too when from is lo[c] (the
// bitmap of a large subtree holds them all: callers set those ending at c
// anyway).
func (m *machine) setSubtree(bits []uint64, c, from int32) {
	v := m.v
	if d := v.dense[c]; d != nil {
		orBits(bits, d)
		return
	}
	setBits(bits, v.order[from:v.hi[c]])
}

// walkLoop returns the loop set that decides subtrees below state id
// without transitions: the state's own, or for a pending UTF-8 prefix
// that of the clean state every completion leads to; nil when there is
// none. u is the UTF-8 automaton state of the pending prefix.
func (m *machine) walkLoop(id int32) (l *loopInfo, u int, err error) {
	p := m.st[id].p
	if p.need != 0 {
		if id, err = m.target(id); err != nil || id < 0 {
			return nil, 0, err
		}
		u = p.utf8State()
	}
	l, err = m.chain(id)
	return l, u, err
}

// loops reports whether every token of the subtree of trie node c, the
// edge into c included, is (after the pending UTF-8 prefix of automaton
// state u, if any) a run of code points of the loop set l short enough
// for it: the subtree is then accepted without a transition, and without
// the states of the UTF-8 prefixes below it.
func (v *Vocab) loops(l *loopInfo, c int32, u int) bool {
	b := v.label[c]
	st := utf8Next(u, b)
	if st < 0 || l.depth == 0 {
		return false
	}
	runes := int32(v.runes[c])
	if b < 0x80 || b >= 0xC0 {
		runes++
	}
	if l.depth > 0 && runes > l.depth {
		return false
	}
	s := &v.sum[c]
	if s.ascii[0]&^l.ascii[0] != 0 || s.ascii[1]&^l.ascii[1] != 0 {
		return false
	}
	switch {
	case b < 0x80:
		if l.ascii[b>>6]&(1<<(b&63)) == 0 {
			return false
		}
	case b >= 0xC0 && l.high != highAll:
		return false
	}
	if s.high && l.high != highAll {
		return false
	}
	return s.utf8&(1<<st) != 0
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
