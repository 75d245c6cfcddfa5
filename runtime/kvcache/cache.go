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
//
// Keys are stored transposed, per layer and KV head: HeadDim rows of
// Context values, row d holding dimension d of every position, so the
// scores of a query are HeadDim long multiply-adds over the positions.
// Values are stored by position: row (layer, pos) holds Dim values, KV head
// h at [h*HeadDim, (h+1)*HeadDim).
type Cache struct {
	typ    Type
	layers int
	ctx    int
	heads  int
	hd     int

	k16, v16 []uint16
	k32, v32 []float32
}

// New allocates a cache of layers × ctx positions × heads × headDim values
// for keys and as many for values.
func New(t Type, layers, ctx, heads, headDim int) (*Cache, error) {
	if t != F16 && t != F32 {
		return nil, fmt.Errorf("%w: unknown type %v", ErrInvalid, t)
	}
	dims := []int{layers, ctx, heads, headDim}
	n := int64(2 * t.size())
	for _, d := range dims {
		if d <= 0 {
			return nil, fmt.Errorf("%w: %d layers × %d positions × %d heads × %d values must all be positive", ErrInvalid, layers, ctx, heads, headDim)
		}
		if n > MaxBytes/int64(d) {
			return nil, fmt.Errorf("%w: %d layers × %d positions × %d heads × %d values of %v exceed %d bytes", ErrInvalid, layers, ctx, heads, headDim, t, int64(MaxBytes))
		}
		n *= int64(d)
	}
	c := &Cache{typ: t, layers: layers, ctx: ctx, heads: heads, hd: headDim}
	elems := layers * ctx * heads * headDim
	if t == F16 {
		c.k16, c.v16 = make([]uint16, elems), make([]uint16, elems)
	} else {
		c.k32, c.v32 = make([]float32, elems), make([]float32, elems)
	}
	return c, nil
}

func (t Type) size() int {
	if t == F32 {
		return 4
	}
	return 2
}

// Type returns the element type.
func (c *Cache) Type() Type { return c.typ }

// Context returns the number of positions the cache holds.
func (c *Cache) Context() int { return c.ctx }

// Layers returns the number of layers.
func (c *Cache) Layers() int { return c.layers }

// Heads returns the number of KV heads.
func (c *Cache) Heads() int { return c.heads }

// HeadDim returns the size of one head.
func (c *Cache) HeadDim() int { return c.hd }

// Dim returns the number of values of one position (KV heads × head size).
func (c *Cache) Dim() int { return c.heads * c.hd }

// Bytes returns the memory the cache holds, keys and values.
func (c *Cache) Bytes() int64 {
	return 2 * int64(c.typ.size()) * int64(c.layers) * int64(c.ctx) * int64(c.Dim())
}

func (c *Cache) checkLayer(layer int) {
	if layer < 0 || layer >= c.layers {
		panic(fmt.Sprintf("kvcache: layer %d outside %d layers", layer, c.layers))
	}
}

// Keys returns the keys of one layer and KV head, transposed: HeadDim rows
// of Context values, in the cache's type (k16 for F16, else k32).
func (c *Cache) Keys(layer, head int) (k16 []uint16, k32 []float32) {
	c.checkLayer(layer)
	if head < 0 || head >= c.heads {
		panic(fmt.Sprintf("kvcache: head %d outside %d heads", head, c.heads))
	}
	n := c.hd * c.ctx
	o := (layer*c.heads + head) * n
	if c.typ == F16 {
		return c.k16[o : o+n], nil
	}
	return nil, c.k32[o : o+n]
}

// Values returns the values of one layer for positions [0, n): n rows of
// Dim values, in the cache's type (v16 for F16, else v32).
func (c *Cache) Values(layer, n int) (v16 []uint16, v32 []float32) {
	c.checkLayer(layer)
	if n < 0 || n > c.ctx {
		panic(fmt.Sprintf("kvcache: %d positions outside a context of %d", n, c.ctx))
	}
	o := layer * c.ctx * c.Dim()
	if c.typ == F16 {
		return c.v16[o : o+n*c.Dim()], nil
	}
	return nil, c.v32[o : o+n*c.Dim()]
}
