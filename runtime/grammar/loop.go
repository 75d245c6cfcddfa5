package grammar

import "slices"

// How much of the non-ASCII code points a loop class holds.
const (
	highNone = iota // none
	highAll         // every one (surrogates aside)
	highSome        // some
)

// loopInfo is the set of code points that take a state back to itself:
// in that state any run of them is accepted, so a trie subtree made only
// of them is accepted whole.
type loopInfo struct {
	ascii [2]uint64
	high  uint8
}

// loopOf returns the loop set of a state without a pending UTF-8 prefix.
// Consuming any code point of a stack's class leads to the same stacks,
// whatever the code point; so a code point loops when the stacks whose
// class holds it lead back to exactly the state: at least one leads to
// the whole state, and none leads outside it.
func (m *machine) loopOf(id int32) (*loopInfo, error) {
	if l := m.st[id].loop; l != nil {
		return l, nil
	}
	stacks := m.st[id].stacks
	var in, out []runeRange
	for _, t := range stacks {
		if t == 0 {
			continue
		}
		n := m.nodes[t]
		m.expandStart()
		if err := m.expand(n.pos+1, n.parent); err != nil {
			return nil, err
		}
		res, err := m.expanded()
		if err != nil {
			return nil, err
		}
		cl := m.g.classes[m.g.elems[n.pos].arg].ranges
		switch {
		case slices.Equal(res, stacks):
			in = append(in, cl...)
		case !subset(res, stacks):
			out = append(out, cl...)
		}
	}
	loop := subtractRanges(normalizeRanges(in), normalizeRanges(out))
	l := summarizeLoop(loop)
	m.st[id].loop = l
	return l, nil
}

func summarizeLoop(rs []runeRange) *loopInfo {
	c := newClass(rs, false)
	l := &loopInfo{ascii: c.ascii}
	high := subtractRanges([]runeRange{{0x80, maxRune}}, append(rs, runeRange{0xD800, 0xDFFF}))
	switch {
	case len(high) == 0:
		l.high = highAll
	case !c.overlaps(0x80, maxRune):
		l.high = highNone
	default:
		l.high = highSome
	}
	return l
}

// subset reports whether sorted a is contained in sorted b.
func subset(a, b []int32) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
	}
	return true
}

// subtractRanges returns a minus b, both normalized.
func subtractRanges(a, b []runeRange) []runeRange {
	nb := complementRanges(normalizeRanges(b))
	var out []runeRange
	i, j := 0, 0
	for i < len(a) && j < len(nb) {
		lo, hi := max(a[i].lo, nb[j].lo), min(a[i].hi, nb[j].hi)
		if lo <= hi {
			out = append(out, runeRange{lo, hi})
		}
		if a[i].hi < nb[j].hi {
			i++
		} else {
			j++
		}
	}
	return out
}

// target returns, for a state with a pending UTF-8 prefix, the clean state
// that every completion of the prefix leads to: the stacks' classes must
// hold every code point the prefix can still become, and all lead to the
// same stacks. It is -1 when there is no such state.
func (m *machine) target(id int32) (int32, error) {
	if t := m.st[id].target; t != 0 {
		return t - 1, nil
	}
	t, err := m.findTarget(id)
	if err != nil {
		return 0, err
	}
	m.st[id].target = t + 1
	return t, nil
}

func (m *machine) findTarget(id int32) (int32, error) {
	s := m.st[id]
	lo, hi := s.p.span()
	var cover []runeRange
	var first []int32
	for i, t := range s.stacks {
		n := m.nodes[t]
		m.expandStart()
		if err := m.expand(n.pos+1, n.parent); err != nil {
			return 0, err
		}
		res, err := m.expanded()
		if err != nil {
			return 0, err
		}
		if i == 0 {
			first = slices.Clone(res)
		} else if !slices.Equal(res, first) {
			return -1, nil
		}
		cover = append(cover, m.g.classes[m.g.elems[n.pos].arg].ranges...)
	}
	miss := subtractRanges([]runeRange{{lo, hi}}, append(cover, runeRange{0xD800, 0xDFFF}))
	if len(first) == 0 || len(miss) > 0 {
		return -1, nil
	}
	return m.internState(partial{}, first), nil
}
