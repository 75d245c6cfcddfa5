package grammar

import (
	"encoding/binary"
	"fmt"
	"slices"
)

// state is a set of stacks that have consumed the same bytes, with the
// UTF-8 prefix they have not yet completed.
type state struct {
	p      partial
	stacks []int32 // sorted top nodes; 0 (first) when the grammar can end
	trans  *[256]int32
	loop   *loopInfo
	target int32 // for a pending prefix: 0 unknown, else target() plus 1
}

func (s *state) accepting() bool { return len(s.stacks) > 0 && s.stacks[0] == 0 }

// internState returns the id of the state (p, stacks), adding it if new.
func (m *machine) internState(p partial, stacks []int32) int32 {
	key := make([]byte, 0, 5+4*len(stacks))
	key = append(key, p.b[0], p.b[1], p.b[2], p.n, p.need)
	for _, s := range stacks {
		key = binary.LittleEndian.AppendUint32(key, uint32(s))
	}
	if id, ok := m.stM[string(key)]; ok {
		return id
	}
	id := int32(len(m.st))
	m.st = append(m.st, state{p: p, stacks: slices.Clone(stacks)})
	m.stM[string(key)] = id
	return id
}

// start returns the initial state.
func (m *machine) start() (int32, error) {
	m.expandStart()
	for _, a := range m.g.rules[m.g.root] {
		if err := m.expand(a, 0); err != nil {
			return 0, err
		}
	}
	stacks, err := m.expanded()
	if err != nil {
		return 0, err
	}
	return m.internState(partial{}, stacks), nil
}

// next returns the state after byte c, or -1 when no stack takes it.
// Transitions are memoized: 0 unknown, -1 dead, else the state id plus 1.
func (m *machine) next(id int32, c byte) (int32, error) {
	s := &m.st[id]
	if s.trans == nil {
		s.trans = new([256]int32)
	}
	switch t := s.trans[c]; {
	case t < 0:
		return -1, nil
	case t > 0:
		return t - 1, nil
	}
	nid, err := m.compute(id, c)
	if err != nil {
		return 0, err
	}
	if nid < 0 {
		m.st[id].trans[c] = -1
	} else {
		m.st[id].trans[c] = nid + 1
	}
	return nid, nil
}

// compute works out the transition of state id on byte c.
func (m *machine) compute(id int32, c byte) (int32, error) {
	s := m.st[id]
	np, r, done, ok := s.p.step(c)
	if !ok {
		return -1, nil
	}
	union := m.union[:0]
	if done {
		only, several := int32(-1), false
		for _, t := range s.stacks {
			if t == 0 || !m.g.classes[m.g.elems[m.nodes[t].pos].arg].contains(r) {
				continue
			}
			a, err := m.afterNode(t)
			if err != nil {
				return 0, err
			}
			if a < 0 || a == only {
				continue
			}
			several = only >= 0
			only = a
			union = append(union, m.st[a].stacks...)
		}
		if !several {
			return only, nil
		}
	} else {
		lo, hi := np.span()
		for _, t := range s.stacks {
			if t != 0 && m.g.classes[m.g.elems[m.nodes[t].pos].arg].overlaps(lo, hi) {
				union = append(union, t)
			}
		}
	}
	m.union = union
	slices.Sort(union)
	union = slices.Compact(union)
	if len(union) > maxStacks {
		return 0, fmt.Errorf("%w: more than %d stacks in one state", ErrTooComplex, maxStacks)
	}
	if len(union) == 0 {
		return -1, nil
	}
	if len(m.st) >= hardStates || len(m.nodes) >= hardNodes {
		return 0, fmt.Errorf("%w: more than %d states or %d stacks in one call", ErrTooComplex, hardStates, hardNodes)
	}
	return m.internState(np, union), nil
}
