// Package kvcache holds the keys and values of attention: for every layer
// and every position of a sequence, one row of KVHeads×HeadDim keys and one
// of values, stored as IEEE halves (the default) or float32.
//
// The memory is one Arena of fixed-size blocks. A Cache is one sequence's
// list of blocks. A Pool hands blocks out from the arena's one budget,
// counts the caches that share each block, and keeps the blocks of
// finished sequences as a prefix cache: blocks are indexed by a hash
// chained over the tokens of every block before them, so a new sequence
// whose tokens begin the same way shares those blocks instead of computing
// them again. Unreferenced cached blocks are evicted least recently used
// first when the arena runs out.
package kvcache

import (
	"errors"
	"fmt"
)

// ErrInvalid is wrapped by the errors of New and ParseType.
var ErrInvalid = errors.New("invalid KV cache")

// MaxBytes bounds the memory of one cache (64 GiB), far above what a CPU
// runtime can use, so that a bad size fails with an error rather than an
// allocation the machine cannot satisfy.
const MaxBytes = 64 << 30

// Type is the element type of a cache.
type Type uint8

// The element types.
const (
	F16 Type = iota // IEEE binary16, half the memory of F32
	F32             // float32, exact
)

// String returns "f16" or "f32".
func (t Type) String() string {
	switch t {
	case F16:
		return "f16"
	case F32:
		return "f32"
	}
	return fmt.Sprintf("kvcache.Type(%d)", uint8(t))
}

// ParseType reads "f16" or "f32" (any case).
func ParseType(s string) (Type, error) {
	switch s {
	case "f16", "F16":
		return F16, nil
	case "f32", "F32":
		return F32, nil
	}
	return 0, fmt.Errorf("%w: KV cache type %q, want f16 or f32", ErrInvalid, s)
}
