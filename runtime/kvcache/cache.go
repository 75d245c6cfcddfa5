// Package kvcache holds the keys and values of attention: for every layer
// and every position of a sequence, one row of KVHeads×HeadDim keys and one
// of values, stored as IEEE halves (the default), float32, or in the GGUF
// block formats Q8_0 and Q4_0 (blocks of 32 values with an fp16 scale).
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
	"strings"

	"github.com/mlxrun/mlx/runtime/kernels"
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
	F16  Type = iota // IEEE binary16, half the memory of F32
	F32              // float32, exact
	Q8_0             // GGUF Q8_0: 34 bytes per 32 values, about half of F16
	Q4_0             // GGUF Q4_0: 18 bytes per 32 values, about a quarter of F16
)

var typeNames = [...]string{F16: "f16", F32: "f32", Q8_0: "q8_0", Q4_0: "q4_0"}

// String returns the name ParseType reads: "f16", "f32", "q8_0" or "q4_0".
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("kvcache.Type(%d)", uint8(t))
}

// ParseType reads "f16", "f32", "q8_0" or "q4_0" (any case).
func ParseType(s string) (Type, error) {
	for t, name := range typeNames {
		if strings.EqualFold(s, name) {
			return Type(t), nil
		}
	}
	return 0, fmt.Errorf("%w: KV cache type %q, want f16, f32, q8_0 or q4_0", ErrInvalid, s)
}

// Quantized reports whether the type is a block format (Q8_0 or Q4_0).
func (t Type) Quantized() bool { return t == Q8_0 || t == Q4_0 }

// DType returns the kernels' format of a block type (Q8_0 or Q4_0).
func (t Type) DType() kernels.DType {
	if t == Q4_0 {
		return kernels.Q4_0
	}
	return kernels.Q8_0
}
