package kernels

import "unsafe"

// The bias term of MLX matrices repacked for the Q4_0 tile kernels
// (pack_affine.go): out[i,r] += Σ_g b[r,g]·xsum[i,g], a float product of
// Cols/GroupSize terms per output. The biases are stored in blocks of
// biasRows rows, each block group by group ([Rows/biasRows][groups][biasRows],
// the last block padded with zero rows), so that one vector of a block's
// outputs takes one fused multiply-add per group from one sequential
// stream.

// biasRows is the rows of one block of the biases (one 256-bit vector).
const biasRows = 8

// biasIndex returns the index in the packed biases of row r, group g.
func biasIndex(r, g, groups int) int {
	return (r/biasRows*groups+g)*biasRows + r%biasRows
}

// biasKernel adds to each of the nblk·biasRows outputs at out the products
// of its block of b with xsum (len(xsum) groups), one fused multiply-add
// per group in the order of the groups.
type biasKernel[T float32 | uint16] func(b []T, xsum []float32, nblk int, out []float32)

// The kernels of float32 and fp16 biases are kernelSet.affineBias and
// affineBias16; assembly replaces them where the CPU has it
// (affine_bias_amd64.go). kernelSet.affineBias16x4, where the CPU has it, is
// affineBias16 for four activation rows at once: xsum holds their
// 4·groups sums, one row after the other, and out their outputs, ostride
// floats apart. Each output gets the same operations as from affineBias16.

// prefetchAffineBias asks for the bias blocks of rows [r0, r1) of w, before
// the tile kernels run over their weights: a decode step reads each bias
// block once, cold, in a burst too short for the hardware prefetcher.
func prefetchAffineBias(w *Matrix, r0, r1 int) {
	groups := w.Cols / w.GroupSize
	i0, n := r0*groups, ((r1+biasRows-1)/biasRows*biasRows-r0)*groups
	if w.affineBias16 != nil {
		impl().prefetchRows(unsafe.Pointer(&w.affineBias16[i0]), 1, 2*n, 0)
		return
	}
	impl().prefetchRows(unsafe.Pointer(&w.affineBias[i0]), 1, 4*n, 0)
}

// groupSumsRef is the plain Go kernelSet.groupSums.
func groupSumsRef(x []float32, gsize int, out []float32) {
	for g := range out {
		var s float32
		for _, v := range x[g*gsize : (g+1)*gsize] {
			s += v
		}
		out[g] = s
	}
}

// affineBiasRef is the plain Go bias kernel.
func affineBiasRef[T float32 | uint16](b []T, xsum []float32, nblk int, out []float32) {
	groups := len(xsum)
	for k := range nblk {
		o := out[k*biasRows : (k+1)*biasRows]
		blk := b[k*groups*biasRows : (k+1)*groups*biasRows]
		for g, x := range xsum {
			for l := range o {
				o[l] += x * biasValue(blk[g*biasRows+l])
			}
		}
	}
}

// biasValue returns a stored bias as a float32.
func biasValue[T float32 | uint16](v T) float32 {
	switch v := any(v).(type) {
	case uint16:
		return f16ToF32(v)
	case float32:
		return v
	}
	return 0
}

// addAffineBias adds the bias term to the outputs of rows [r0, r1) of a
// repacked MLX matrix (r0 a multiple of biasRows) for the activation rows
// [i0, i1). The tile kernels call it for each tile of activation rows just
// after computing it, while those outputs are still in the cache, and a
// tile of four rows goes through affineBias16x4 (each converted bias
// vector used four times, eight independent multiply-add chains).
func (p *Pool) addAffineBias(s *workerScratch, pt *mmPart, r0, r1, i0, i1 int) {
	k := p.mm.k
	if w := pt.w; w.affineBias16 != nil {
		if groups := w.Cols / w.GroupSize; i1-i0 == 4 && k.affineBias16x4 != nil && r1-r0 >= biasRows {
			nblk := (r1 - r0) / biasRows
			b := w.affineBias16[r0*groups : (r0+nblk*biasRows)*groups]
			k.affineBias16x4(b, p.mm.xsum[i0*groups:i1*groups], nblk, pt.out[i0*w.Rows+r0:], w.Rows)
			if r0 += nblk * biasRows; r0 == r1 {
				return
			}
		}
		addBias(p, s, pt, r0, r1, i0, i1, w.affineBias16, k.affineBias16)
		return
	}
	addBias(p, s, pt, r0, r1, i0, i1, pt.w.affineBias, k.affineBias)
}

// addBias is addAffineBias with the biases b and their kernel. Rows past
// the last whole block go through the same kernel in the scratch tile, so
// every output gets the same operations in the same order whichever chunk
// holds it.
func addBias[T float32 | uint16](p *Pool, s *workerScratch, pt *mmPart, r0, r1, i0, i1 int, all []T, kern biasKernel[T]) {
	j := &p.mm
	w := pt.w
	groups := w.Cols / w.GroupSize
	nblk := (r1 - r0) / biasRows
	n8 := r0 + nblk*biasRows
	b := all[r0*groups : (r1+biasRows-1)/biasRows*biasRows*groups]
	for i := i0; i < i1; i++ {
		out := pt.out[i*w.Rows:]
		xs := j.xsum[(pt.x0+i)*groups : (pt.x0+i+1)*groups]
		if nblk > 0 {
			kern(b, xs, nblk, out[r0:n8])
		}
		if n8 < r1 {
			to := s.tile[:biasRows]
			clear(to)
			copy(to, out[n8:r1])
			kern(b[nblk*groups*biasRows:], xs, 1, to)
			copy(out[n8:r1], to)
		}
	}
}
