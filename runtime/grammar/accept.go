package grammar

import (
	"errors"
	"fmt"
	"slices"
)

// Accept advances the matcher by a token. A token the grammar does not
// allow here returns ErrRejected and leaves the matcher unchanged.
func (x *Matcher) Accept(id int) error {
	v := x.m.v
	if id < 0 || id >= len(v.pieces) {
		return fmt.Errorf("%w: token id %d outside the vocabulary of %d", ErrRejected, id, len(v.pieces))
	}
	if x.done {
		return fmt.Errorf("%w: token %d after the end of generation", ErrRejected, id)
	}
	x.m.mu.Lock()
	defer x.m.mu.Unlock()
	cur := x.state()
	if slices.Contains(v.eog, int32(id)) {
		if !x.m.st[cur].accepting() {
			return fmt.Errorf("%w: end of generation (token %d) before the text is complete", ErrRejected, id)
		}
		x.done = true
		return nil
	}
	piece := v.pieces[id]
	if piece == "" {
		return fmt.Errorf("%w: token %d has no text", ErrRejected, id)
	}
	next, err := x.m.advance(cur, piece)
	if err != nil {
		return err
	}
	if next < 0 {
		return fmt.Errorf("%w: token %d (%q)", ErrRejected, id, piece)
	}
	x.set(next)
	return nil
}

// AcceptString advances the matcher by text that is not a token (a prompt
// prefix forced by the caller, say).
func (x *Matcher) AcceptString(s string) error {
	x.m.mu.Lock()
	defer x.m.mu.Unlock()
	next, err := x.m.advance(x.state(), s)
	if err != nil {
		return err
	}
	if next < 0 {
		return fmt.Errorf("%w: text %q", ErrRejected, s)
	}
	x.set(next)
	return nil
}

// advance follows the bytes of s from state id; -1 when one is refused.
func (m *machine) advance(id int32, s string) (int32, error) {
	for i := 0; i < len(s) && id >= 0; i++ {
		var err error
		if id, err = m.next(id, s[i]); err != nil {
			return 0, err
		}
	}
	return id, nil
}

func sortInt32(s []int32) { slices.Sort(s) }

// Match reports whether text is a complete match of the grammar. Errors
// other than a rejection (ErrTooComplex) are returned.
func (g *Grammar) Match(text string) (bool, error) {
	m, err := NewMatcher(g, NewVocab(nil, nil))
	if err != nil {
		return false, err
	}
	if err := m.AcceptString(text); err != nil {
		if errors.Is(err, ErrRejected) {
			return false, nil
		}
		return false, err
	}
	return m.Accepting(), nil
}
