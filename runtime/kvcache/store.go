package kvcache

import (
	"fmt"

	"github.com/mlxrun/mlx/runtime/kernels"
)

// Store writes the key and value of one position of one layer (the
// layer's Dim values each), converting them to the cache's type. A
// half-precision cache converts through scratch, which must hold Dim
// values; callers running Store concurrently pass their own. A block
// format quantizes each KV head's key and value as llama.cpp does when it
// copies them into its cache.
func (c *Cache) Store(layer, pos int, k, v []float32, scratch []uint16) {
	c.checkLayer(layer)
	if pos < 0 || pos >= c.Context() {
		panic(fmt.Sprintf("kvcache: position %d outside %d positions", pos, c.Context()))
	}
	a, dim := c.a, c.Dim(layer)
	k, v = k[:dim], v[:dim]
	if a.typ.Quantized() {
		c.storeRows(layer, pos, k, v)
		return
	}
	base, p := c.block(pos/a.bs)+a.off[layer], pos%a.bs
	vo := base + p*dim
	ko := base + p // key dimension j of this position: ko + j*bs
	if a.typ == F32 {
		copy(a.v32[vo:vo+dim], v)
		for j, x := range k {
			a.k32[ko+j*a.bs] = x
		}
		return
	}
	kernels.F32ToF16(a.v16[vo:vo+dim], v)
	h := scratch[:dim]
	kernels.F32ToF16(h, k)
	for j, x := range h {
		a.k16[ko+j*a.bs] = x
	}
}

// storeRows quantizes the key and value of each KV head into its row.
func (c *Cache) storeRows(layer, pos int, k, v []float32) {
	bs, hd := c.a.bs, c.a.shapes[layer].HeadDim
	t := c.a.typ.DType()
	rb := kernels.QuantRowBytes(t, hd)
	bi, p := pos/bs, pos%bs
	for h := range c.a.shapes[layer].Heads {
		kernels.QuantizeRow(t, c.KeyRows(layer, h, bi)[p*rb:], k[h*hd:(h+1)*hd])
		kernels.QuantizeRow(t, c.ValueRows(layer, h, bi)[p*rb:], v[h*hd:(h+1)*hd])
	}
}
