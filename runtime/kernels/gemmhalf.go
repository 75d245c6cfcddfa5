package kernels

import "unsafe"

// Tile matmuls of F16 and BF16 weights with float32 activations, for more
// than one activation row (prefill, batched decode). The weights stay as
// stored (no repacked copy): a kernel reads four consecutive weight rows,
// converts each vector of them once, and multiplies it into several
// activation rows, keeping one vector of sums per (row, activation row) in
// registers for the whole row. One activation row (decode) takes the dot
// products of a whole chunk of rows in one call that streams the weights
// from memory (halfDecode).

// halfKernel computes out[c*ostride+t] = Σ_k W[t][k]·x[c*cols+k] for the
// four weight rows t at w (wstride values apart) and the activation rows c
// of its tile at x, over cols values (a multiple of its step).
type halfKernel func(w *uint16, wstride int, x *float32, cols int, out *float32, ostride int)

// halfSet is the tile kernels of one half-precision weight format for one
// instruction set; the zero value means none.
type halfSet struct {
	tile halfKernel // four weight rows × m activation rows
	m    int
	one  halfKernel // four weight rows × one activation row
	step int        // Cols must be a multiple of step
	// wide, where set, is tile on weight rows converted to float32
	// beforehand, with the same sums in the same order: a block of
	// activation rows then converts each group of weight rows once.
	wide func(w *float32, wstride int, x *float32, cols int, out *float32, ostride int)
	// decode, where set, sets out[r] to the dot product of weight row r
	// (rows consecutive rows of cols values at w, cols a multiple of 8)
	// with one activation row x, with the sums of the dot product kernel,
	// asking for the weights ahead bytes on as it reads them.
	decode func(w *uint16, x *float32, cols, rows int, out *float32, ahead int)
}

// halfRows is the weight rows of a tile kernel.
const halfRows = 4

// halfBlock is the activation rows a chunk meets per pass over its weight
// rows: 30 rows of a 1536-column layer are 180 KiB of activations, which
// stay in L2 while each group of four weight rows stays in L1. It is a
// multiple of every kernel's tile rows (2 and 6), so that only the last
// block of a batch leaves rows to the one-row kernel.
const halfBlock = 30

// halfKernels returns the tile kernels of weight type t, or nil.
func (k *kernelSet) halfKernels(t DType) *halfSet {
	var hs *halfSet
	switch t {
	case F16:
		hs = &k.half[0]
	case BF16:
		hs = &k.half[1]
	default:
		return nil
	}
	if hs.one == nil {
		return nil
	}
	return hs
}

// halfChunk computes output rows [r0, r1) of an F16 or BF16 matrix for
// every activation row with the tile kernels, and reports false (having
// done nothing) when they do not apply: one activation row, no kernels for
// this CPU, or columns that are not a multiple of their step.
func (p *Pool) halfChunk(s *workerScratch, pt *mmPart, r0, r1 int) bool {
	j := &p.mm
	w := pt.w
	hs := j.k.halfKernels(w.Type)
	if j.n < 2 || hs == nil || w.Cols%hs.step != 0 {
		return false
	}
	cols := w.Cols
	wd := asU16(w.Data)
	for i0 := 0; i0 < j.n; i0 += halfBlock {
		i1 := min(i0+halfBlock, j.n)
		for r := r0; r < r1; r += halfRows {
			if r+halfRows <= r1 && hs.wide != nil && i1-i0 >= 2*hs.m {
				wf := s.wideRows(halfRows * cols)
				F16ToF32(wf, wd[r*cols:(r+halfRows)*cols])
				wideTiles(hs, wf, j.x, i0, i1, cols, pt.out[r:], w.Rows)
				continue
			}
			if r+halfRows <= r1 {
				halfTiles(hs, &wd[r*cols], cols, j.x, i0, i1, cols, pt.out[r:], w.Rows)
				continue
			}
			// The last rows of the chunk: the kernel reads row r four
			// times (stride 0) and each row of the rest is one of those.
			for ; r < r1; r++ {
				for i := i0; i < i1; i++ {
					hs.one(&wd[r*cols], 0, &j.x[i*cols], cols, &s.tile[0], 1)
					pt.out[i*w.Rows+r] = s.tile[0]
				}
			}
		}
	}
	return true
}

// halfTiles runs the kernels of hs over four weight rows at w (wstride
// values apart) and activation rows [i0, i1) of x, writing out[i*ostride+t].
func halfTiles(hs *halfSet, w *uint16, wstride int, x []float32, i0, i1, cols int, out []float32, ostride int) {
	i := i0
	for ; i+hs.m <= i1; i += hs.m {
		hs.tile(w, wstride, &x[i*cols], cols, &out[i*ostride], ostride)
	}
	for ; i < i1; i++ {
		hs.one(w, wstride, &x[i*cols], cols, &out[i*ostride], ostride)
	}
}

// wideTiles runs hs.wide over the four float32 weight rows wf and
// activation rows [i0, i1) of x, at least hs.m of them, writing
// out[i*ostride+t]. The rows past the last whole tile go through one more
// tile that ends at i1: the rows it shares with the tile before get the
// same sums again.
func wideTiles(hs *halfSet, wf []float32, x []float32, i0, i1, cols int, out []float32, ostride int) {
	i := i0
	for ; i+hs.m <= i1; i += hs.m {
		hs.wide(&wf[0], cols, &x[i*cols], cols, &out[i*ostride], ostride)
	}
	if i < i1 {
		i = i1 - hs.m
		hs.wide(&wf[0], cols, &x[i*cols], cols, &out[i*ostride], ostride)
	}
}

// wideRows returns the worker's scratch for n float32 weights.
func (s *workerScratch) wideRows(n int) []float32 {
	if cap(s.wide) < n {
		s.wide = make([]float32, n)
	}
	return s.wide[:n]
}

// halfAhead is how far ahead of its reads, in bytes, a decode kernel asks
// for the weights: a decode step reads each weight once, straight from
// memory, and a request per line this far ahead keeps the stream steady
// across rows and pages, where asking for whole rows at their start comes
// in bursts that stall the loads.
const halfAhead = 8 << 10

// halfDecode computes output rows [r0, r1) of an F16 or BF16 matrix for
// one activation row (a decode step): with the decode kernel where there
// is one, else with the dot product kernels, in order, with the rows ahead
// asked for (rowAhead); it reports false (having done nothing) for other
// matrices or more activation rows.
func (p *Pool) halfDecode(s *workerScratch, pt *mmPart, r0, r1 int) bool {
	j := &p.mm
	w := pt.w
	if j.n != 1 || w.Type != F16 && w.Type != BF16 {
		return false
	}
	x := j.x[:w.Cols]
	if hs := j.k.halfKernels(w.Type); hs != nil && hs.decode != nil && w.Cols%8 == 0 {
		rb := w.rowBytes()
		start := unsafe.Pointer(&w.Data[r0*rb])
		if uintptr(start) != s.lastEnd { // else the last chunk's requests ran ahead into this one
			j.k.prefetchRows(start, 1, min((r1-r0)*rb, halfAhead), 0)
		}
		s.lastEnd = uintptr(start) + uintptr((r1-r0)*rb)
		hs.decode(&asU16(w.Data)[r0*w.Cols], &x[0], w.Cols, r1-r0, &pt.out[r0], halfAhead)
		return true
	}
	dot := j.k.dotF16
	if w.Type == BF16 {
		dot = j.k.dotBF16
	}
	ra := p.rowsAhead(w, r0, r1)
	for r := r0; r < r1; r++ {
		ra.ask(r)
		pt.out[r] = dot(asU16(w.rowData(r)), x)
	}
	return true
}
