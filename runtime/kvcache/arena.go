package kvcache

import (
	"fmt"

	"github.com/mlxrun/mlx/runtime/kernels"
)

// Arena is the memory of a KV cache: Blocks() blocks of BlockSize()
// positions, each holding the keys and values of every layer for its
// positions. Sequences own blocks through a Cache, which lists them in
// position order; a Pool hands them out. Layers may differ in shape (KV
// heads and head size), as the full-attention layers of Gemma 4 do.
//
// Within a block, keys are stored transposed per layer and KV head:
// HeadDim rows of BlockSize values, row d holding dimension d of every
// position, so the scores of a query are HeadDim multiply-adds over the
// positions of the block. Values are stored by position: BlockSize rows of
// the layer's Dim values, KV head h at [h*HeadDim, (h+1)*HeadDim).
//
// The block formats (Q8_0, Q4_0) store keys and values alike, by KV head
// and then by position: BlockSize rows of HeadDim values in 32-value
// blocks, so that a query scores a key with integer dot products, as the
// weight kernels do, and a head's values are one run of memory.
type Arena struct {
	typ    Type
	shapes []Shape
	off    []int // offset of each layer's keys (and values) in a block, in slots
	bs     int   // positions per block
	blocks int
	elems  int // slots of keys (or values) per block: values, or bytes of a block format

	k16, v16 []uint16
	k32, v32 []float32
	kq, vq   []byte

	states stateStore // per-sequence recurrent state, when set
}

// Shape is what one layer caches per position: Heads KV heads of HeadDim
// keys, and as many values.
type Shape struct{ Heads, HeadDim int }

// Dim returns the keys (or values) of one position: Heads × HeadDim.
func (s Shape) Dim() int { return s.Heads * s.HeadDim }

// Uniform returns the shapes of layers layers of heads × headDim.
func Uniform(layers, heads, headDim int) []Shape {
	out := make([]Shape, max(layers, 0))
	for i := range out {
		out[i] = Shape{heads, headDim}
	}
	return out
}

// NewArena allocates blocks blocks of blockSize positions, for layers ×
// heads × headDim keys and as many values per position.
func NewArena(t Type, layers, heads, headDim, blockSize, blocks int) (*Arena, error) {
	return NewArenaShapes(t, Uniform(layers, heads, headDim), blockSize, blocks)
}

// NewArenaShapes allocates blocks blocks of blockSize positions, for the
// keys and values of layers of the given shapes.
func NewArenaShapes(t Type, shapes []Shape, blockSize, blocks int) (*Arena, error) {
	if int(t) >= len(typeNames) {
		return nil, fmt.Errorf("%w: unknown type %v", ErrInvalid, t)
	}
	per, err := positionElems(shapes)
	if err != nil {
		return nil, err
	}
	if err := t.Fits(shapes); err != nil {
		return nil, err
	}
	n := int64(2*t.size()) * per
	for _, d := range []int{blockSize, blocks} {
		if d <= 0 {
			return nil, fmt.Errorf("%w: %d blocks of %d positions must be positive", ErrInvalid, blocks, blockSize)
		}
		if n > MaxBytes/int64(d) {
			return nil, fmt.Errorf("%w: %d blocks of %d positions × %d layers × %d values of %v exceed %d bytes",
				ErrInvalid, blocks, blockSize, len(shapes), per, t, int64(MaxBytes))
		}
		n *= int64(d)
	}
	a := &Arena{typ: t, shapes: shapes, off: make([]int, len(shapes)), bs: blockSize, blocks: blocks}
	for i, sh := range shapes {
		a.off[i] = a.elems
		a.elems += blockSize * t.slots(sh)
	}
	total := a.elems * blocks
	switch {
	case t == F16:
		a.k16, a.v16 = make([]uint16, total), make([]uint16, total)
	case t == F32:
		a.k32, a.v32 = make([]float32, total), make([]float32, total)
	default:
		a.kq, a.vq = make([]byte, total), make([]byte, total)
	}
	return a, nil
}

// Fits checks that the type can hold layers of the given shapes: a block
// format needs head sizes of whole 32-value blocks.
func (t Type) Fits(shapes []Shape) error {
	if !t.Quantized() {
		return nil
	}
	for l, sh := range shapes {
		if sh.HeadDim%32 != 0 {
			return fmt.Errorf("%w: a %v cache needs head sizes that are multiples of 32; layer %d has %d", ErrInvalid, t, l, sh.HeadDim)
		}
	}
	return nil
}

// slots returns the slots (elements of the arena's slices) that one
// position of a layer takes for its keys, and as many for its values.
func (t Type) slots(sh Shape) int {
	if t.Quantized() {
		return sh.Heads * kernels.QuantRowBytes(t.DType(), sh.HeadDim)
	}
	return sh.Dim()
}

// positionElems returns the keys (or values) of one position over all
// layers, checking every shape.
func positionElems(shapes []Shape) (int64, error) {
	if len(shapes) == 0 {
		return 0, fmt.Errorf("%w: no layers", ErrInvalid)
	}
	var n int64
	for _, sh := range shapes {
		if sh.Heads <= 0 || sh.HeadDim <= 0 || sh.Heads > 1<<16 || sh.HeadDim > 1<<16 {
			return 0, fmt.Errorf("%w: layer of %d heads × %d values", ErrInvalid, sh.Heads, sh.HeadDim)
		}
		if n += int64(sh.Dim()); n > MaxBytes {
			return 0, fmt.Errorf("%w: %d layers of up to %d values exceed %d bytes", ErrInvalid, len(shapes), sh.Dim(), int64(MaxBytes))
		}
	}
	return n, nil
}

// BlockBytes returns the memory of one block of blockSize positions: keys
// and values of every layer.
func BlockBytes(t Type, layers, heads, headDim, blockSize int) int64 {
	return BlockBytesShapes(t, Uniform(layers, heads, headDim), blockSize)
}

// BlockBytesShapes returns the memory of one block of blockSize positions
// for layers of the given shapes.
func BlockBytesShapes(t Type, shapes []Shape, blockSize int) int64 {
	var n int64
	for _, sh := range shapes {
		n += int64(t.slots(sh))
	}
	return 2 * int64(t.size()) * n * int64(blockSize)
}

// Type returns the element type.
func (a *Arena) Type() Type { return a.typ }

// BlockSize returns the positions of one block.
func (a *Arena) BlockSize() int { return a.bs }

// Blocks returns the number of blocks.
func (a *Arena) Blocks() int { return a.blocks }

// Bytes returns the memory of all blocks, keys and values.
func (a *Arena) Bytes() int64 { return 2 * int64(a.typ.size()) * int64(a.elems) * int64(a.blocks) }

// Copy copies the keys and values of block src to block dst.
func (a *Arena) Copy(dst, src int32) {
	d, s := int(dst)*a.elems, int(src)*a.elems
	switch {
	case a.typ == F16:
		copy(a.k16[d:d+a.elems], a.k16[s:s+a.elems])
		copy(a.v16[d:d+a.elems], a.v16[s:s+a.elems])
	case a.typ == F32:
		copy(a.k32[d:d+a.elems], a.k32[s:s+a.elems])
		copy(a.v32[d:d+a.elems], a.v32[s:s+a.elems])
	default:
		copy(a.kq[d:d+a.elems], a.kq[s:s+a.elems])
		copy(a.vq[d:d+a.elems], a.vq[s:s+a.elems])
	}
}

// NewCache returns an empty cache whose blocks come from a.
func (a *Arena) NewCache() *Cache { return &Cache{a: a} }

// Cache is the key/value memory of one sequence: the arena blocks that
// hold its positions, in order. Positions [i*BlockSize, (i+1)*BlockSize)
// are in the i-th block.
type Cache struct {
	a     *Arena
	table []int32

	// Kept by the Pool: the chain hash after the leading blocks it
	// indexed (or found indexed), and how many they are.
	hash    uint64
	indexed int

	rec recurrent // the fixed-size state of linear-attention layers, if any
}

// New allocates a cache of layers × ctx positions × heads × headDim values
// for keys and as many for values, as one block of its own.
func New(t Type, layers, ctx, heads, headDim int) (*Cache, error) {
	a, err := NewArena(t, layers, heads, headDim, ctx, 1)
	if err != nil {
		return nil, err
	}
	c := a.NewCache()
	c.table = []int32{0}
	return c, nil
}

// Arena returns the arena of the cache's blocks.
func (c *Cache) Arena() *Arena { return c.a }

// Table returns the blocks of the cache, in position order; the caller
// must not change it.
func (c *Cache) Table() []int32 { return c.table }

// Type returns the element type.
func (c *Cache) Type() Type { return c.a.typ }

// Context returns the number of positions the cache's blocks hold.
func (c *Cache) Context() int { return len(c.table) * c.a.bs }

// BlockSize returns the positions of one block.
func (c *Cache) BlockSize() int { return c.a.bs }

// Layers returns the number of layers.
func (c *Cache) Layers() int { return len(c.a.shapes) }

// Shape returns the shape of a layer.
func (c *Cache) Shape(layer int) Shape { return c.a.shapes[layer] }

// Heads returns the number of KV heads of the first layer (of every layer
// when they all have one shape).
func (c *Cache) Heads() int { return c.a.shapes[0].Heads }

// HeadDim returns the size of one head of the first layer.
func (c *Cache) HeadDim() int { return c.a.shapes[0].HeadDim }

// Dim returns the number of values of one position of a layer (its KV
// heads × head size).
func (c *Cache) Dim(layer int) int { return c.a.shapes[layer].Dim() }

// Bytes returns the memory of the cache's blocks, keys and values.
func (c *Cache) Bytes() int64 {
	return 2 * int64(c.a.typ.size()) * int64(c.a.elems) * int64(len(c.table))
}

// size returns the bytes of one slot.
func (t Type) size() int {
	switch t {
	case F32:
		return 4
	case F16:
		return 2
	}
	return 1
}

func (c *Cache) checkLayer(layer int) {
	if layer < 0 || layer >= len(c.a.shapes) {
		panic(fmt.Sprintf("kvcache: layer %d outside %d layers", layer, len(c.a.shapes)))
	}
}

// block returns the arena offset of the i-th block of the cache.
func (c *Cache) block(i int) int {
	if i < 0 || i >= len(c.table) {
		panic(fmt.Sprintf("kvcache: block %d outside %d blocks", i, len(c.table)))
	}
	return int(c.table[i]) * c.a.elems
}

// KeyBlock returns the keys of one layer and KV head in the i-th block of
// the cache, transposed: HeadDim rows of BlockSize values, in the cache's
// type (k16 for F16, else k32).
func (c *Cache) KeyBlock(layer, head, i int) (k16 []uint16, k32 []float32) {
	c.checkLayer(layer)
	sh := c.a.shapes[layer]
	if head < 0 || head >= sh.Heads {
		panic(fmt.Sprintf("kvcache: head %d outside %d heads", head, sh.Heads))
	}
	n := sh.HeadDim * c.a.bs
	o := c.block(i) + c.a.off[layer] + head*n
	if c.a.typ == F16 {
		return c.a.k16[o : o+n], nil
	}
	return nil, c.a.k32[o : o+n]
}

// ValueBlock returns the values of one layer in the i-th block of the
// cache: BlockSize rows of the layer's Dim values, in the cache's type (v16
// for F16, else v32).
func (c *Cache) ValueBlock(layer, i int) (v16 []uint16, v32 []float32) {
	c.checkLayer(layer)
	n := c.a.bs * c.Dim(layer)
	o := c.block(i) + c.a.off[layer]
	if c.a.typ == F16 {
		return c.a.v16[o : o+n], nil
	}
	return nil, c.a.v32[o : o+n]
}

// KeyRows returns the keys of one layer and KV head in the i-th block of a
// cache of a block format: BlockSize rows of the layer's HeadDim values,
// kernels.QuantRowBytes(Type().DType(), HeadDim) bytes each.
func (c *Cache) KeyRows(layer, head, i int) []byte { return c.rows(c.a.kq, layer, head, i) }

// ValueRows is KeyRows for values.
func (c *Cache) ValueRows(layer, head, i int) []byte { return c.rows(c.a.vq, layer, head, i) }

func (c *Cache) rows(data []byte, layer, head, i int) []byte {
	c.checkLayer(layer)
	sh := c.a.shapes[layer]
	if head < 0 || head >= sh.Heads {
		panic(fmt.Sprintf("kvcache: head %d outside %d heads", head, sh.Heads))
	}
	if !c.a.typ.Quantized() {
		panic(fmt.Sprintf("kvcache: rows of a %v cache", c.a.typ))
	}
	n := c.a.bs * c.a.typ.slots(sh) / sh.Heads
	o := c.block(i) + c.a.off[layer] + head*n
	return data[o : o+n]
}
