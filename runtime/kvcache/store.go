package kvcache

import (
	"fmt"

	"github.com/mlxrun/mlx/runtime/kernels"
)

// Store writes the key and value of one position of one layer (Dim values
// each), converting them to the cache's type. A half-precision cache
// converts through scratch, which must hold Dim values; callers running
// Store concurrently pass their own.
func (c *Cache) Store(layer, pos int, k, v []float32, scratch []uint16) {
	c.checkLayer(layer)
	if pos < 0 || pos >= c.ctx {
		panic(fmt.Sprintf("kvcache: position %d outside a context of %d", pos, c.ctx))
	}
	dim := c.Dim()
	k, v = k[:dim], v[:dim]
	vo := (layer*c.ctx + pos) * dim
	ko := layer*dim*c.ctx + pos // key dimension j of this position: ko + j*ctx
	if c.typ == F32 {
		copy(c.v32[vo:vo+dim], v)
		for j, x := range k {
			c.k32[ko+j*c.ctx] = x
		}
		return
	}
	kernels.F32ToF16(c.v16[vo:vo+dim], v)
	h := scratch[:dim]
	kernels.F32ToF16(h, k)
	for j, x := range h {
		c.k16[ko+j*c.ctx] = x
	}
}
