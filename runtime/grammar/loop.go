package grammar

import (
	"math/bits"
	"slices"
)

// How much of the non-ASCII code points a loop class holds.
const (
	highNone = iota // none
	highAll         // every one (surrogates aside)
	highSome        // some
)

// loopInfo describes the code points that take a state to a state that
// behaves the same: in a JSON string, any character but a quote or a
// backslash leads back to the same state (depth unbounded); in a string
// of at most n characters, to the state with one character fewer left
// (depth n). A run of at most depth such code points is accepted, so a
// trie subtree made only of them, with pieces that short, is accepted
// whole.
type loopInfo struct {
	ascii [2]uint64
	high  uint8
	depth int32 // code points in a row; -1 for no limit
	// closed: after depth of them, none of them is accepted.
	closed bool
	next   int32 // the state they lead to, -1 for none
	// chained: depth and closed are set (see chain).
	chained bool
	// visiting: on the run that chain is following (a cycle ends there).
	visiting bool
}

// loopOf returns the loop set of a state without a pending UTF-8 prefix.
// Consuming any code point of a stack's class leads to the same stacks,
// whatever the code point. For each distinct result R, the code points
// that lead exactly to R are those of the classes of stacks leading to R,
// less those of stacks leading outside R; the largest such set wins.
func (m *machine) loopOf(id int32) (*loopInfo, error) {
	if l := m.st[id].loop; l != nil {
		return l, nil
	}
	m.st[id].loop = &loopInfo{} // placeholder against cycles of states
	stacks := m.st[id].stacks
	var results [][]int32
	var classes [][]runeRange
	for _, t := range stacks {
		if t == 0 {
			continue
		}
		a, err := m.afterNode(t)
		if err != nil {
			return nil, err
		}
		var res []int32
		if a >= 0 {
			res = m.st[a].stacks
		}
		results = append(results, res)
		classes = append(classes, m.g.classes[m.g.elems[m.nodes[t].pos].arg].ranges)
	}
	var best *loopInfo
	for i, r := range results {
		if i > 0 && slices.ContainsFunc(results[:i], func(x []int32) bool { return slices.Equal(x, r) }) {
			continue
		}
		var in, out []runeRange
		for j, x := range results {
			switch {
			case slices.Equal(x, r):
				in = append(in, classes[j]...)
			case !subset(x, r):
				out = append(out, classes[j]...)
			}
		}
		l := summarizeLoop(subtractRanges(normalizeRanges(in), normalizeRanges(out)))
		if best == nil || l.score() > best.score() {
			best = l
			best.next = m.internState(partial{}, r)
		}
	}
	if best == nil {
		best = &loopInfo{next: -1}
	}
	m.st[id].loop = best
	return best, nil
}

// chain returns the loop set of a state with its depth: no limit when
// the loop code points lead back to it, else one more than the state they
// lead to when that one loops on the same code points (a bounded run).
// Runs that would nest deeper are not followed. A run is followed for at
// most one more state than the code points of the longest token: a
// longer run has depth -1 too, since no token can tell it from an
// unbounded one (a string of up to 300 characters does not compute the
// 300 states at its start). The states on the way keep no depth then.
func (m *machine) chain(id int32) (*loopInfo, error) {
	l, err := m.loopOf(id)
	if err != nil || l.chained {
		return l, err
	}
	budget := int(m.v.runes[0]) + 1
	var path []*loopInfo // states whose depth follows from the next one
	s, ls := id, l
	for !ls.chained && !ls.visiting && len(path) < budget {
		n, err := m.chainStep(s, ls)
		if err != nil {
			m.unvisit(path)
			return nil, err
		}
		if n < 0 {
			break // ls is settled
		}
		ls.visiting = true
		path = append(path, ls)
		if ls, err = m.loopOf(n); err != nil {
			m.unvisit(path)
			return nil, err
		}
		s = n
	}
	m.unvisit(path)
	var depth int32 // of the state after path's last
	closed := false
	switch {
	case ls.chained && !ls.visiting:
		depth, closed = ls.depth, ls.closed
	case len(path) == budget && !ls.chained:
		l.depth, l.chained = -1, true
		return l, nil
	}
	for i := len(path) - 1; i >= 0; i-- {
		p := path[i]
		p.depth, p.closed = 1, false
		switch {
		case depth < 0:
			p.depth = -1
		case depth > 0:
			p.depth, p.closed = min(depth+1, 1<<30), closed
		}
		p.chained = true
		depth, closed = p.depth, p.closed
	}
	return l, nil
}

// chainStep returns the state that state s's run continues with, or -1
// after settling l, the loop set of s: unbounded when it loops back to s,
// depth 0 when it leads nowhere, 1 when the next state nests deeper or
// loops on other code points.
func (m *machine) chainStep(s int32, l *loopInfo) (int32, error) {
	switch {
	case l.next == s:
		l.depth, l.chained = -1, true
		return -1, nil
	case l.next < 0:
		l.chained = true
		return -1, nil
	case m.maxDepth(m.st[l.next].stacks) > m.maxDepth(m.st[s].stacks):
		l.depth, l.chained = 1, true
		return -1, nil
	}
	next, err := m.loopOf(l.next)
	if err != nil {
		return 0, err
	}
	if next.ascii != l.ascii || next.high != l.high {
		l.depth, l.closed, l.chained = 1, m.rejectsAll(l.next, l), true
		return -1, nil
	}
	return l.next, nil
}

func (m *machine) unvisit(path []*loopInfo) {
	for _, p := range path {
		p.visiting = false
	}
}

// rejectsAll reports whether no stack of state id takes a code point of
// the loop set l.
func (m *machine) rejectsAll(id int32, l *loopInfo) bool {
	for _, t := range m.st[id].stacks {
		if t == 0 {
			continue
		}
		c := &m.g.classes[m.g.elems[m.nodes[t].pos].arg]
		if c.ascii[0]&l.ascii[0] != 0 || c.ascii[1]&l.ascii[1] != 0 {
			return false
		}
		if l.high != highNone && c.overlaps(0x80, maxRune) {
			return false
		}
	}
	return true
}

// score ranks loop sets: all non-ASCII code points first, then the most
// ASCII ones.
func (l *loopInfo) score() int {
	s := bits.OnesCount64(l.ascii[0]) + bits.OnesCount64(l.ascii[1])
	if l.high == highAll {
		s += 1 << 8
	}
	return s
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
	target := int32(-1)
	for _, t := range s.stacks {
		a, err := m.afterNode(t)
		if err != nil {
			return 0, err
		}
		if a < 0 || target >= 0 && a != target {
			return -1, nil
		}
		target = a
		cover = append(cover, m.g.classes[m.g.elems[m.nodes[t].pos].arg].ranges...)
	}
	miss := subtractRanges([]runeRange{{lo, hi}}, append(cover, runeRange{0xD800, 0xDFFF}))
	if len(miss) > 0 {
		return -1, nil
	}
	return target, nil
}

// maxDepth returns the depth of the deepest stack.
func (m *machine) maxDepth(stacks []int32) int32 {
	d := int32(0)
	for _, t := range stacks {
		d = max(d, m.nodes[t].depth)
	}
	return d
}
