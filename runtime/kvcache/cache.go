// Package kvcache holds the keys and values of attention for one sequence:
// for every layer and every position, one row of KVHeads×HeadDim keys and one
// of values, stored as IEEE halves (the default) or float32.
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

// Cache is the key/value memory of one sequence for Context positions.
// Row (layer, pos) holds Dim values: KV head h at [h*headDim, (h+1)*headDim).
type Cache struct {
	typ    Type
	layers int
	ctx    int
	dim    int

	k16, v16 []uint16
	k32, v32 []float32
}

// New allocates a cache of layers × ctx positions × dim values for keys and
// as many for values.
func New(t Type, layers, ctx, dim int) (*Cache, error) {
	if t != F16 && t != F32 {
		return nil, fmt.Errorf("%w: unknown type %v", ErrInvalid, t)
	}
	if layers <= 0 || ctx <= 0 || dim <= 0 {
		return nil, fmt.Errorf("%w: %d layers × %d positions × %d values must all be positive", ErrInvalid, layers, ctx, dim)
	}
	elem := int64(2)
	if t == F32 {
		elem = 4
	}
	if b := 2 * elem * int64(layers) * int64(ctx) * int64(dim); b > MaxBytes || b/elem/2/int64(layers)/int64(ctx) != int64(dim) {
		return nil, fmt.Errorf("%w: %d layers × %d positions × %d values of %v exceed %d bytes", ErrInvalid, layers, ctx, dim, t, int64(MaxBytes))
	}
	c := &Cache{typ: t, layers: layers, ctx: ctx, dim: dim}
	n := layers * ctx * dim
	if t == F16 {
		c.k16, c.v16 = make([]uint16, n), make([]uint16, n)
	} else {
		c.k32, c.v32 = make([]float32, n), make([]float32, n)
	}
	return c, nil
}

// Type returns the element type.
func (c *Cache) Type() Type { return c.typ }

// Context returns the number of positions the cache holds.
func (c *Cache) Context() int { return c.ctx }

// Dim returns the number of values in one row (KV heads × head size).
func (c *Cache) Dim() int { return c.dim }

// Bytes returns the memory the cache holds, keys and values.
func (c *Cache) Bytes() int64 {
	elem := int64(2)
	if c.typ == F32 {
		elem = 4
	}
	return 2 * elem * int64(c.layers) * int64(c.ctx) * int64(c.dim)
}

func (c *Cache) off(layer, pos int) int {
	if layer < 0 || layer >= c.layers || pos < 0 || pos >= c.ctx {
		panic(fmt.Sprintf("kvcache: row (layer %d, position %d) outside %d layers × %d positions", layer, pos, c.layers, c.ctx))
	}
	return (layer*c.ctx + pos) * c.dim
}

// Layer returns the rows of one layer for positions [0, n): keys and values,
// n×Dim values each, in the cache's type (k16/v16 for F16, else k32/v32).
func (c *Cache) Layer(layer, n int) (k16, v16 []uint16, k32, v32 []float32) {
	if n < 0 || n > c.ctx {
		panic(fmt.Sprintf("kvcache: %d positions outside a context of %d", n, c.ctx))
	}
	o := c.off(layer, 0)
	if c.typ == F16 {
		return c.k16[o : o+n*c.dim], c.v16[o : o+n*c.dim], nil, nil
	}
	return nil, nil, c.k32[o : o+n*c.dim], c.v32[o : o+n*c.dim]
}

// Layers returns the number of layers.
func (c *Cache) Layers() int { return c.layers }
