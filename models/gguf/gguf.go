// Package gguf reads GGUF model files, versions 2 and 3 (little-endian).
//
// Open memory-maps a file read-only; the metadata and tensor descriptions
// are parsed and copied into Go values, and TensorData returns zero-copy
// slices of the mapping. Every size and count read from the file is checked
// before it is used: a truncated or hostile file yields an error wrapping
// ErrFormat (or ErrUnsupported for valid content this reader does not
// handle) that names the file and what is wrong, never a panic and never an
// allocation larger than the file itself justifies.
//
// Limits: strings at most 16 MiB (metadata keys 64 KiB), arrays at most
// 16M elements, arrays nested at most 8 deep, at most 1M metadata entries
// and 1M tensors, at most 4 dimensions per tensor, general.alignment a
// power of two no larger than 1 MiB.
package gguf

import (
	"errors"
	"fmt"
	"os"

	"github.com/mlxrun/mlx/models/mmap"
)

// ErrFormat is wrapped by every error about a malformed or truncated file.
var ErrFormat = errors.New("invalid GGUF file")

// ErrUnsupported is wrapped by errors about well-formed content this
// package cannot handle: GGUF version 1, big-endian files and tensor types
// without a known layout. Decoding tensor values is the kernels' work
// (runtime/kernels.Decode).
var ErrUnsupported = errors.New("unsupported GGUF content")

// File is a parsed GGUF file.
type File struct {
	Path       string       // the name given to Open or Parse
	Version    uint32       // 2 or 3
	Alignment  uint64       // general.alignment, 32 when absent
	DataOffset uint64       // absolute file offset of the tensor data section
	KV         []KV         // metadata in file order
	Tensors    []TensorInfo // tensor descriptions in file order

	data    []byte
	mapping *mmap.Map
	keys    map[string]int
	names   map[string]int
}

// KV is one metadata entry.
type KV struct {
	Key   string
	Value Value
}

// Open maps the file at path read-only and parses it. The tensor data stays
// in the mapping until Close.
func Open(path string) (*File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("gguf: %w", err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("gguf: %s is a directory, not a GGUF file", path)
	}
	m, err := mmap.Open(path)
	if err != nil {
		return nil, fmt.Errorf("gguf: %w", err)
	}
	f, err := Parse(m.Bytes(), path)
	if err != nil {
		m.Close()
		return nil, err
	}
	f.mapping = m
	return f, nil
}

// Parse parses a GGUF file held in memory. name is used in errors and as
// File.Path. The returned File refers to data for TensorData; the metadata
// is copied.
func Parse(data []byte, name string) (*File, error) {
	if name == "" {
		name = "<memory>"
	}
	d := &decoder{name: name, data: data, budget: maxMetadataAlloc}
	f := &File{Path: name, data: data}
	if err := d.header(f); err != nil {
		return nil, err
	}
	return f, nil
}

// Close releases the mapping made by Open. TensorData returns nil after
// Close; the metadata stays valid. Close is safe to call more than once.
func (f *File) Close() error {
	f.data = nil
	if f.mapping == nil {
		return nil
	}
	m := f.mapping
	f.mapping = nil
	return m.Close()
}
