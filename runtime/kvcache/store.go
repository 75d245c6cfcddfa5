package kvcache

import "github.com/mlxrun/mlx/runtime/kernels"

// Store writes the key and value rows of one position of one layer
// (Dim values each), converting them to the cache's type.
func (c *Cache) Store(layer, pos int, k, v []float32) {
	o := c.off(layer, pos)
	k, v = k[:c.dim], v[:c.dim]
	if c.typ == F16 {
		kernels.F32ToF16(c.k16[o:o+c.dim], k)
		kernels.F32ToF16(c.v16[o:o+c.dim], v)
		return
	}
	copy(c.k32[o:o+c.dim], k)
	copy(c.v32[o:o+c.dim], v)
}
