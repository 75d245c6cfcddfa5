package kernels

// Packed reports whether m keeps its own copy of the weights in the layout
// of the tile kernels (pack.go). Matmuls then read only that copy while the
// tile kernels are in use, and Row reads it too for Q4_0 and Q8_0, so the
// stored Data of such a matrix is read again only by the reference kernels
// (SetReference) and by Row for the other packed types.
func (m *Matrix) Packed() bool { return m.packed != nil }

// PackedBytes returns the size of m's packed copy, 0 when it has none.
func (m *Matrix) PackedBytes() int { return len(m.packed) }

// packedRow dequantizes row r from the packed copy of a Q4_0 or Q8_0 matrix
// into dst, as Row does from Data, and reports whether it could: false for
// other types and matrices without a packed copy. Reading the packed copy
// leaves the pages of Data untouched (a model file's mapping, which the
// loader gives back to the system once the copy is made).
func (m *Matrix) packedRow(r int, dst []float32) bool {
	rb := packRowBytes(m.Type)
	if m.packed == nil || rb == 0 {
		return false
	}
	gb, pb, wb, nb := m.groupBytes(), pairScale+groupRows*rb, m.Type.blockBytes(), m.Cols/qk
	g, gr := r/groupRows, r%groupRows
	var blk [34]byte // the largest block, Q8_0's
	for p := range pairs(m.Cols) {
		pair := m.packed[g*gb+p*pb : g*gb+(p+1)*pb]
		vals := pair[pairScale+gr*rb : pairScale+(gr+1)*rb]
		for h := range 2 {
			b := 2*p + h
			if b >= nb {
				break
			}
			blk[0], blk[1] = pair[4*gr+2*h], pair[4*gr+2*h+1]
			unpackBlock(m.Type, vals, blk[2:], h)
			dequant32(m.Type, blk[:wb], dst[b*qk:(b+1)*qk])
		}
	}
	return true
}

// unpackBlock is packBlock backwards: it puts the values of block h of a
// packed pair (src) back in their stored form (qs).
func unpackBlock(t DType, src, qs []byte, h int) {
	if t == Q4_0 {
		copy(qs[:16], src[16*h:16*h+16])
		return
	}
	for j := range 16 {
		qs[j] = src[16*h+j] ^ 0x80
		qs[16+j] = src[32+16*h+j] ^ 0x80
	}
}
