// Package safetensors reads weights in the safetensors format: a single file
// or a directory of shards listed by model.safetensors.index.json. Files are
// memory-mapped and every tensor's Data is a zero-copy slice of the mapping.
//
// Every length, offset and shape in a file is checked against the file's
// size before use; a bad file gives an error wrapping ErrFormat or
// ErrUnsupported that names the file and the problem.
package safetensors

import (
	"fmt"
	"maps"
	"slices"

	"github.com/mlxrun/mlx/models/mmap"
)

// Tensor is one named array of a safetensors file.
type Tensor struct {
	Name  string
	File  string // path (or name given to Parse) of the file holding the tensor
	DType DType
	Shape []int  // row-major, as in the file: the last dimension varies fastest
	Data  []byte // little-endian elements, a read-only slice of the file mapping
}

// Elements returns the number of elements (1 for a scalar).
func (t *Tensor) Elements() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// table holds the tensors and metadata shared by File and Model.
type table struct {
	byName map[string]*Tensor
	names  []string // sorted
	meta   map[string]string
}

// Tensor returns the named tensor.
func (t *table) Tensor(name string) (*Tensor, bool) {
	x, ok := t.byName[name]
	return x, ok
}

// Names returns the tensor names in sorted order.
func (t *table) Names() []string { return slices.Clone(t.names) }

// Len returns the number of tensors.
func (t *table) Len() int { return len(t.names) }

// Metadata returns a copy of the header's __metadata__ map (such as
// {"format": "mlx"}); it is empty when the header has none.
func (t *table) Metadata() map[string]string {
	m := maps.Clone(t.meta)
	if m == nil {
		m = map[string]string{}
	}
	return m
}

// File is one open safetensors file.
type File struct {
	table
	Path string
	m    *mmap.Map
}

// Open maps and parses one safetensors file. Close releases the mapping, after
// which no Tensor's Data may be used.
func Open(path string) (*File, error) {
	m, err := mmap.Open(path)
	if err != nil {
		return nil, fmt.Errorf("safetensors: %w", err)
	}
	f, err := Parse(m.Bytes(), path)
	if err != nil {
		m.Close()
		return nil, err
	}
	f.m = m
	return f, nil
}

// Close releases the file mapping. It is safe to call more than once.
func (f *File) Close() error {
	if f == nil || f.m == nil {
		return nil
	}
	m := f.m
	f.m = nil
	return m.Close()
}
