// Package mmap maps files read-only into memory. On systems without mmap the
// file is read into memory instead, behind the same API.
package mmap

import (
	"errors"
	"fmt"
	"os"
)

// ErrTooLarge is returned for a file that does not fit in the address space.
var ErrTooLarge = errors.New("file too large to map")

// Map is a read-only view of a whole file.
type Map struct {
	data   []byte
	mapped bool
}

// Open maps the named file read-only. An empty file gives an empty Map.
func Open(path string) (*Map, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	size := st.Size()
	if size == 0 {
		return &Map{}, nil
	}
	if size < 0 || uint64(size) > uint64(maxInt) {
		return nil, fmt.Errorf("%s: %w (%d bytes)", path, ErrTooLarge, size)
	}
	data, mapped, err := mapFile(f, int(size))
	if err != nil {
		return nil, fmt.Errorf("%s: map: %w", path, err)
	}
	return &Map{data: data, mapped: mapped}, nil
}

const maxInt = int(^uint(0) >> 1)

// Bytes returns the file's contents. The slice must not be written to and is
// invalid after Close.
func (m *Map) Bytes() []byte { return m.data }

// Len returns the size of the file.
func (m *Map) Len() int { return len(m.data) }

// Close unmaps the file. It is safe to call more than once.
func (m *Map) Close() error {
	if m == nil || m.data == nil {
		return nil
	}
	data := m.data
	m.data = nil
	if m.mapped {
		return unmap(data)
	}
	return nil
}
