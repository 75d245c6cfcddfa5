package grammar

import "sync"

// machines keeps the machines of the grammars used last, so that the
// requests of one grammar over one vocabulary (a schema the server sees
// again: its grammar cache returns the same *Grammar) share memoized
// states, transitions and masks instead of building them again.
var machines struct {
	mu   sync.Mutex
	list []*machine // most recently used first
}

// sharedMachines bounds the machines kept (each holds at most maxStates
// states and maskBudget bytes of masks).
const sharedMachines = 4

// sharedMachine returns the kept machine of g over v, or a new one.
func sharedMachine(g *Grammar, v *Vocab) *machine {
	machines.mu.Lock()
	defer machines.mu.Unlock()
	l := machines.list
	for i, m := range l {
		if m.g == g && m.v == v {
			copy(l[1:i+1], l[:i])
			l[0] = m
			return m
		}
	}
	m := newMachine(g, v)
	if len(l) < sharedMachines {
		l = append(l, nil)
	}
	copy(l[1:], l)
	l[0] = m
	machines.list = l
	return m
}
