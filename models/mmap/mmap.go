// Package mmap maps files read-only into memory. On systems without mmap the
// file is read into memory instead, behind the same API.
package mmap

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"unsafe"
)

// ErrTooLarge is returned for a file that does not fit in the address space.
var ErrTooLarge = errors.New("file too large to map")

// ErrRange is returned by Release for a range outside the mapping.
var ErrRange = errors.New("range outside the mapping")

// Map is a read-only view of a whole file.
type Map struct {
	path   string
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
		return &Map{path: path}, nil
	}
	if size < 0 || uint64(size) > uint64(maxInt) {
		return nil, fmt.Errorf("%s: %w (%d bytes)", path, ErrTooLarge, size)
	}
	data, mapped, err := mapFile(f, int(size))
	if err != nil {
		return nil, fmt.Errorf("%s: map: %w", path, err)
	}
	m := &Map{path: path, data: data, mapped: mapped}
	if mapped {
		live.add(m)
	}
	return m, nil
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
	if m.mapped {
		live.remove(m) // first: Release in other goroutines reads m.data under the registry's lock
	}
	data := m.data
	m.data = nil
	if m.mapped {
		return unmap(data)
	}
	return nil
}

// Release tells the system that the n bytes at off will not be read for a
// while, so that the pages wholly inside them stop counting as this
// process's memory (the partial pages at either end stay). The bytes stay
// valid: reading them again brings them back from the file. It returns the
// number of bytes given back, 0 where the file was read into memory rather
// than mapped.
func (m *Map) Release(off, n int) (int, error) {
	if m == nil || off < 0 || n < 0 || off > len(m.data) || n > len(m.data)-off {
		size := 0
		if m != nil {
			size = len(m.data)
		}
		return 0, fmt.Errorf("%w: %d bytes at %d of a file of %d", ErrRange, n, off, size)
	}
	if !m.mapped || n == 0 {
		return 0, nil
	}
	page := os.Getpagesize() // a mapping starts on a page
	lo := (off + page - 1) / page * page
	hi := (off + n) / page * page
	if hi <= lo {
		return 0, nil
	}
	if err := release(m.data[lo:hi]); err != nil {
		return 0, fmt.Errorf("%s: release %d bytes at %d: %w", m.path, hi-lo, lo, err)
	}
	return hi - lo, nil
}

// Release gives back the pages of b, a part of the bytes of a Map still open
// (see Map.Release). Bytes that belong to no open Map, such as a copy on the
// heap, are left alone: it returns 0 for them.
func Release(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	m, off := live.find(b)
	if m == nil {
		return 0, nil
	}
	return m.Release(off, len(b))
}

// registry holds the open mappings, so that Release can tell a slice of a
// mapping from any other memory.
type registry struct {
	mu   sync.Mutex
	maps map[*Map]struct{}
}

var live registry

func (r *registry) add(m *Map) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.maps == nil {
		r.maps = map[*Map]struct{}{}
	}
	r.maps[m] = struct{}{}
}

func (r *registry) remove(m *Map) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.maps, m)
}

// find returns the open mapping that holds all of b and b's offset in it.
func (r *registry) find(b []byte) (*Map, int) {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	r.mu.Lock()
	defer r.mu.Unlock()
	for m := range r.maps {
		start := uintptr(unsafe.Pointer(unsafe.SliceData(m.data)))
		if p >= start && p-start <= uintptr(len(m.data)) && uintptr(len(b)) <= uintptr(len(m.data))-(p-start) {
			return m, int(p - start)
		}
	}
	return nil, 0
}
