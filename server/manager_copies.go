package server

import (
	"errors"
	"sort"
)

// maxCopies bounds the names /api/copy may add.
const maxCopies = 1024

// errTooManyCopies is the error of a copy beyond maxCopies.
var errTooManyCopies = errors.New("too many copies: delete some with /api/delete first")

// copyModel makes dst another name of the model src names, for the
// server's lifetime: requests may then name it dst.
func (m *manager) copyModel(src, dst string) error {
	id, err := m.resolve(src)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.copies == nil {
		m.copies = map[string]string{}
	}
	if _, ok := m.copies[dst]; !ok && len(m.copies) >= maxCopies {
		return errTooManyCopies
	}
	m.copies[dst] = id
	return nil
}

// deleteCopy removes a name copyModel added; false when name is none.
func (m *manager) deleteCopy(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.copies[name]
	delete(m.copies, name)
	return ok
}

// copyList returns the copies' names and the ids they name, by name.
func (m *manager) copyList() [][2]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([][2]string, 0, len(m.copies))
	for name, id := range m.copies {
		out = append(out, [2]string{name, id})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// known reports whether name already names a model: a copy, a loaded
// model or one the loader's Resolver takes.
func (m *manager) known(name string) bool {
	m.mu.Lock()
	_, copied := m.copies[name]
	_, loaded := m.entries[m.canonical(name)]
	m.mu.Unlock()
	if copied || loaded {
		return true
	}
	r, ok := m.loader.(Resolver)
	if !ok {
		return false
	}
	_, err := r.Resolve(name)
	return err == nil
}
