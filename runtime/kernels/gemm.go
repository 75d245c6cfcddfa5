package kernels

import "unsafe"

// Tile matmuls of packed weights (pack.go, pack_q8x8.go, pack_kquant.go) with
// activations quantized in blocks (quantizePairsRef). A kernel computes one
// group of weight rows (four, or eight for the Q8_0 layout of pack_q8x8.go)
// against several activation rows (wide: gemmSet.cols of them) or one
// (one), keeping the sums in registers across the whole row: the weights
// are read once per tile of activation rows, the activations once per
// group. The kernels of a layout do the same operations in the same order
// for every (row, column) pair, so a result does not depend on which
// kernel, or how many other rows, computed it.

// gemmKernel computes out[c*ostride+r] for the rows r of the packed group
// at w and the activation rows c (gemmSet.cols of them for wide, 1 for one)
// at x, xstride bytes apart, over np pairs of blocks; ostride counts
// floats.
type gemmKernel func(w, x *byte, np, xstride int, out *float32, ostride int)

// gemmSet is the tile kernels of one packed layout; wide, two and three
// may be nil.
type gemmSet struct {
	wide, one gemmKernel
	cols      int // activation rows of wide
	// two and three compute two and three activation rows, the same bits
	// as one for each: the tile of a decode step's expert that two or
	// three of its rows chose.
	two, three gemmKernel
	// ahead: with few activation rows (a decode step) packedChunk asks
	// for up to prefetchBytes of the group ahead as the tiles compute, so
	// that reading the weights from memory overlaps computing.
	ahead bool
	// inloop: the kernels themselves ask for the next group's weights a
	// pair at a time as they compute (PFF4), so packedChunk asks only for
	// the start of a chunk: one request per group, all at once, stalls
	// the kernel that issues it.
	inloop bool
	// stream: a decode step reads the matrix in long chunks
	// (streamChunkRows), for the eight-row layout, whose kernels also ask
	// for the next group's weights as they go. The four-row layouts do
	// not read faster with the long chunks.
	stream bool
}

// groupRows returns the weight rows of one packed group of m.
func (m *Matrix) groupRows() int {
	if m.layout == layoutQ8x8 {
		return group8Rows
	}
	return groupRows
}

// packedFor reports whether a matmul of w with kernels k uses the packed
// tile kernels.
func (w *Matrix) packedFor(k *kernelSet) bool {
	return w.packed != nil && k.gemm[w.layout].one != nil
}

// packedChunk computes output rows [r0, r1) (r0 a multiple of the group
// rows) of a packed matrix for every activation row, in tiles of
// gemmSet.cols activation rows (one for the last few).
//
// With few activation rows (a decode step) the weights come from memory
// and are the bound: every tile meets a group right after the first, so a
// group is read from memory once. For kernels that ask ahead (gemmSet.ahead)
// the first prefetchBytes of the group ahead are asked for while the tiles
// compute, so that reading overlaps computing (the hardware prefetcher
// alone does not run far enough ahead); for kernels that ask ahead
// themselves as they go (gemmSet.inloop), only the start of the chunk is
// asked for. With many activation rows (a prompt chunk) every tile meets
// the whole chunk of weights in turn, which stays in cache while the
// activations stream past.
func (p *Pool) packedChunk(s *workerScratch, pt *mmPart, r0, r1 int) {
	j := &p.mm
	w := pt.w
	if w.affinePacked() {
		prefetchAffineBias(w, r0, r1)
	}
	gr := w.groupRows()
	cols := max(j.k.gemm[w.layout].cols, 1)
	n := pt.n
	if n <= groupOuterRows {
		gb := w.groupBytes()
		g0, g1, ahead := r0/gr, (r1+gr-1)/gr, max(1, prefetchBytes/gb)
		ask, each := j.k.gemm[w.layout].ahead, !j.k.gemm[w.layout].inloop
		if ask {
			j.k.prefetchRows(unsafe.Pointer(&w.packed[g0*gb]), 1, min(min(ahead, g1-g0)*gb, prefetchBytes), 0)
		}
		for g := g0; g < g1; g++ {
			if ask && each && g+ahead < g1 {
				j.k.prefetchRows(unsafe.Pointer(&w.packed[(g+ahead)*gb]), 1, min(gb, prefetchBytes), 0)
			}
			p.packedTiles(s, pt, g*gr, min((g+1)*gr, r1), 0, n)
		}
	} else {
		for i := 0; i < n; i += cols {
			p.packedTiles(s, pt, r0, r1, i, min(i+cols, n))
		}
	}
	if w.affinePacked() {
		for i := 0; i < n; i += 4 {
			p.addAffineBias(s, pt, r0, r1, i, min(i+4, n))
		}
	}
}

// groupOuterRows is the most activation rows for which packedChunk runs
// every tile against a group before the next group; it asks for up to
// prefetchBytes of the eight-row group about that far ahead.
const (
	groupOuterRows = 16
	prefetchBytes  = 5 << 10
)

// packedTiles computes output rows [r0, r1) of a packed matrix for its
// part's activation rows [i0, i1): tiles of gemmSet.cols rows and then pairs
// (gemmSet.two) or single rows, each against every group of the range.
// Three last rows go through gemmSet.three where the layout has one; else a
// last tile one row short of gemmSet.cols still goes through the wide
// kernel, its missing row read from the padding of the quantized
// activations (tilePadRows) and its results left in the scratch tile: one
// pass that decodes the weights once costs less than that many single-row
// passes that each decode them (a decode step's experts often get two or
// three of the batch's rows).
func (p *Pool) packedTiles(s *workerScratch, pt *mmPart, r0, r1, i0, i1 int) {
	j := &p.mm
	w := pt.w
	g := j.k.gemm[w.layout]
	np, gb, gr := pairs(w.Cols), w.groupBytes(), w.groupRows()
	for i := i0; i < i1; {
		m, kern, pad := 1, g.one, false
		switch {
		case g.wide != nil && i1-i >= g.cols:
			m, kern = g.cols, g.wide
		case g.three != nil && i1-i == 3:
			m, kern = 3, g.three
		case g.wide != nil && g.cols > 2 && i1-i == g.cols-1:
			m, kern, pad = g.cols-1, g.wide, true
		case g.two != nil && i1-i >= 2:
			m, kern = 2, g.two
		}
		x := &j.xq[(pt.x0+i)*j.xstride]
		for r := r0; r < r1; r += gr {
			wg := &w.packed[r/gr*gb]
			if r+gr <= w.Rows && !pad {
				kern(wg, x, np, j.xstride, &pt.out[i*w.Rows+r], w.Rows)
				continue
			}
			kern(wg, x, np, j.xstride, &s.tile[0], gr)
			rows := min(gr, w.Rows-r)
			for t := range m {
				copy(pt.out[(i+t)*w.Rows+r:][:rows], s.tile[t*gr:][:rows])
			}
		}
		i += m
	}
}
