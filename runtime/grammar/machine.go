package grammar

import (
	"fmt"
	"slices"
	"sync"
)

// machine holds what the matchers of one grammar and vocabulary share:
// interned stack nodes, interned states, their byte transitions and the
// memoized masks. A Matcher and its clones lock it for each call.
//
// A stack is a chain of nodes; node 0 is the empty stack. A node's pos is
// where matching continues: for the top node a class element, below it the
// element after a rule reference. Equal stacks are the same node, and a
// state is a pending UTF-8 prefix plus a sorted set of top nodes.
type machine struct {
	mu    sync.Mutex
	g     *Grammar
	v     *Vocab
	gen   int // bumped when the caches are reset
	nodes []node
	nodeM map[uint64]int32
	st    []state
	stM   map[string]int32
	masks maskStore

	// scratch for expansion
	seen  map[uint64]struct{}
	steps int
	out   []int32
	union []int32 // scratch for transitions
}

type node struct {
	pos, parent int32
	depth       int32
	// after is the clean state reached when this top node consumes a code
	// point of its class (the same for every such code point): 0 unknown,
	// -1 none (the stacks are empty), else the state id plus 1.
	after int32
}

func newMachine(g *Grammar, v *Vocab) *machine {
	m := &machine{g: g, v: v}
	m.reset()
	return m
}

// reset drops every interned node and state.
func (m *machine) reset() {
	m.gen++
	m.nodes = append(m.nodes[:0], node{pos: -1, parent: -1})
	m.nodeM = map[uint64]int32{}
	m.st = m.st[:0]
	m.stM = map[string]int32{}
	m.seen = map[uint64]struct{}{}
	m.masks.clear()
}

// full reports whether the caches should be reset before the next call.
func (m *machine) full() bool {
	return len(m.nodes) > maxNodes || len(m.st) > maxStates
}

func (m *machine) intern(pos, parent int32) int32 {
	k := uint64(uint32(pos))<<32 | uint64(uint32(parent))
	if id, ok := m.nodeM[k]; ok {
		return id
	}
	id := int32(len(m.nodes))
	m.nodes = append(m.nodes, node{pos: pos, parent: parent, depth: m.nodes[parent].depth + 1})
	m.nodeM[k] = id
	return id
}

// expandStart begins an expansion: results are appended to m.out.
func (m *machine) expandStart() {
	m.out = m.out[:0]
	m.steps = 0
	clear(m.seen)
}

// expand adds to m.out the stacks whose tops are class elements reached
// from position pos over the stack parent without consuming input (0, the
// empty stack, when the whole grammar can end).
func (m *machine) expand(pos, parent int32) error {
	k := uint64(uint32(pos))<<32 | uint64(uint32(parent))
	if _, ok := m.seen[k]; ok {
		return nil
	}
	m.seen[k] = struct{}{}
	if m.steps++; m.steps > maxExpand {
		return fmt.Errorf("%w: more than %d expansion steps for one state", ErrTooComplex, maxExpand)
	}
	e := m.g.elems[pos]
	switch e.kind {
	case elemEnd:
		if parent == 0 {
			m.out = append(m.out, 0)
			return nil
		}
		p := m.nodes[parent]
		return m.expand(p.pos, p.parent)
	case elemClass:
		if m.nodes[parent].depth >= maxDepth {
			return nil // nesting past the bound is not allowed
		}
		m.out = append(m.out, m.intern(pos, parent))
		return nil
	}
	next := parent
	if m.g.elems[pos+1].kind != elemEnd {
		if m.nodes[parent].depth >= maxDepth {
			return nil
		}
		next = m.intern(pos+1, parent)
	}
	for _, a := range m.g.rules[e.arg] {
		if err := m.expand(a, next); err != nil {
			return err
		}
	}
	return nil
}

// expanded returns m.out sorted and deduplicated, checked against the
// bound on stacks per state.
func (m *machine) expanded() ([]int32, error) {
	slices.Sort(m.out)
	m.out = slices.Compact(m.out)
	if len(m.out) > maxStacks {
		return nil, fmt.Errorf("%w: more than %d stacks in one state", ErrTooComplex, maxStacks)
	}
	return m.out, nil
}

// materialize returns the positions of a stack, top first, so that a
// matcher can rebuild its state after the caches were reset.
func (m *machine) materialize(id int32) []int32 {
	var ps []int32
	for ; id != 0; id = m.nodes[id].parent {
		ps = append(ps, m.nodes[id].pos)
	}
	return ps
}

// rebuild interns a materialized stack again.
func (m *machine) rebuild(ps []int32) int32 {
	id := int32(0)
	for i := len(ps) - 1; i >= 0; i-- {
		id = m.intern(ps[i], id)
	}
	return id
}

// afterNode returns the state reached when top node t consumes one code
// point of its class, or -1 when no stack remains.
func (m *machine) afterNode(t int32) (int32, error) {
	switch a := m.nodes[t].after; {
	case a > 0:
		return a - 1, nil
	case a < 0:
		return -1, nil
	}
	n := m.nodes[t]
	m.expandStart()
	if err := m.expand(n.pos+1, n.parent); err != nil {
		return 0, err
	}
	res, err := m.expanded()
	if err != nil {
		return 0, err
	}
	if len(res) == 0 {
		m.nodes[t].after = -1
		return -1, nil
	}
	id := m.internState(partial{}, res)
	m.nodes[t].after = id + 1
	return id, nil
}
