package kernels

// The bias term of MLX matrices repacked for the Q4_0 tile kernels
// (affine_pack.go): out[i,r] += Σ_g B[r,g]·xsum[i,g], a float product of
// Cols/GroupSize terms per output. B is stored in blocks of biasRows rows,
// each block group by group ([Rows/biasRows][groups][biasRows], the last
// block padded with zero rows), so that one vector of a block's outputs
// takes one fused multiply-add per group from one sequential stream.

// biasRows is the rows of one block of affineBias (one 256-bit vector).
const biasRows = 8

// biasIndex returns the index in affineBias of row r, group g.
func biasIndex(r, g, groups int) int {
	return (r/biasRows*groups+g)*biasRows + r%biasRows
}

// affineBiasKern adds to each of the nblk·biasRows outputs at out the
// products of its block of b with xsum (len(xsum) groups), one fused
// multiply-add per group in the order of the groups; assembly replaces it
// where the CPU has it (affinebias_amd64.go).
var affineBiasKern = affineBiasRef

// groupSums sets out[g] to the sum of the gsize values of group g of x (the
// activations' side of the bias term); assembly replaces it where the CPU
// has it.
var groupSums = groupSumsRef

// groupSumsRef is the plain Go groupSums.
func groupSumsRef(x []float32, gsize int, out []float32) {
	for g := range out {
		var s float32
		for _, v := range x[g*gsize : (g+1)*gsize] {
			s += v
		}
		out[g] = s
	}
}

// affineBiasRef is the plain Go affineBiasKern.
func affineBiasRef(b, xsum []float32, nblk int, out []float32) {
	groups := len(xsum)
	for k := range nblk {
		o := out[k*biasRows : (k+1)*biasRows]
		blk := b[k*groups*biasRows : (k+1)*groups*biasRows]
		for g, x := range xsum {
			for l := range o {
				o[l] += x * blk[g*biasRows+l]
			}
		}
	}
}

// addAffineBias adds the bias term to the outputs of rows [r0, r1) of a
// repacked MLX matrix (r0 a multiple of biasRows) for every activation
// row. Rows past the last whole block go through the same kernel in the
// scratch tile, so every output gets the same operations in the same
// order whichever chunk holds it.
func (p *Pool) addAffineBias(s *workerScratch, pt *mmPart, r0, r1 int) {
	j := &p.mm
	w := pt.w
	groups := w.Cols / w.GroupSize
	nblk := (r1 - r0) / biasRows
	n8 := r0 + nblk*biasRows
	b := w.affineBias[r0*groups : (r1+biasRows-1)/biasRows*biasRows*groups]
	for i := range j.n {
		out := pt.out[i*w.Rows:]
		xs := j.xsum[i*groups : (i+1)*groups]
		if nblk > 0 {
			affineBiasKern(b, xs, nblk, out[r0:n8])
		}
		if n8 < r1 {
			to := s.tile[:biasRows]
			clear(to)
			copy(to, out[n8:r1])
			affineBiasKern(b[nblk*groups*biasRows:], xs, 1, to)
			copy(out[n8:r1], to)
		}
	}
}
