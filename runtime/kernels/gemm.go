package kernels

// Tile matmuls of packed weights (pack.go) with activations quantized in
// pairs of blocks (quantizePairsRef). A kernel computes one group of four
// weight rows against four activation rows (four) or one (one), keeping
// the sixteen or four sums in registers across the whole row: the weights
// are read once per four activation rows, the activations once per four
// weight rows. Both kernels do the same operations in the same order for
// every (row, column) pair, so a result does not depend on which kernel, or
// how many other rows, computed it.

// gemmKernel computes out[c*ostride+r] for the 4 rows r of the packed group
// at w and the activation rows c (4 for gemmSet.four, 1 for gemmSet.one) at
// x, xstride bytes apart, over np pairs of blocks; ostride counts floats.
type gemmKernel func(w, x *byte, np, xstride int, out *float32, ostride int)

// gemmSet is the tile kernels of one weight format; four may be nil.
type gemmSet struct{ four, one gemmKernel }

// packedFor reports whether a matmul of w with kernels k uses the packed
// tile kernels.
func (w *Matrix) packedFor(k *impls) bool {
	return w.packed != nil && k.gemm[w.layout].one != nil
}

// packedChunk computes output rows [r0, r1) (r0 a multiple of groupRows)
// of a packed matrix for every activation row: activation rows in tiles of
// four, each against every group of the chunk.
func (p *Pool) packedChunk(s *workerScratch, pt *mmPart, r0, r1 int) {
	j := &p.mm
	w := pt.w
	g := j.k.gemm[w.layout]
	np, gb := pairs(w.Cols), w.groupBytes()
	if w.affinePacked() {
		prefetchAffineBias(w, r0, r1)
	}
	for i := 0; i < j.n; {
		m, kern := 1, g.one
		if g.four != nil && j.n-i >= 4 {
			m, kern = 4, g.four
		}
		x := &j.xq[i*j.xstride]
		for r := r0; r < r1; r += groupRows {
			wg := &w.packed[r/groupRows*gb]
			if r+groupRows <= w.Rows {
				kern(wg, x, np, j.xstride, &pt.out[i*w.Rows+r], w.Rows)
				continue
			}
			kern(wg, x, np, j.xstride, &s.tile[0], groupRows)
			for t := range m {
				copy(pt.out[(i+t)*w.Rows+r:(i+t+1)*w.Rows], s.tile[t*groupRows:])
			}
		}
		if w.affinePacked() {
			p.addAffineBias(s, pt, r0, r1, i, i+m)
		}
		i += m
	}
}
