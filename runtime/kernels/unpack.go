package kernels

// Packed reports whether m keeps its own copy of the weights in the layout
// of the tile kernels (pack.go, pack_kquant.go). Matmuls then read only that copy
// while the tile kernels are in use, and Row reads it too, so the stored
// Data of such a matrix is read again only by the reference kernels
// (SetReference).
func (m *Matrix) Packed() bool { return m.packed != nil }

// PackedBytes returns the size of m's packed copy, 0 when it has none.
func (m *Matrix) PackedBytes() int { return len(m.packed) }

// packedRow dequantizes row r from the packed copy of a GGUF matrix into
// dst, the same values Row computes from Data, and reports whether it
// could: false for matrices without a packed copy, and for MLX matrices,
// whose packed Q4_0 form leaves out the bias term (pack_affine.go). The
// packed blocks of the other types hold the stored values exactly, in the
// format of m.layout (Q5_0 is held as Q8_0, pack_q5.go). Reading the packed
// copy leaves the pages of Data untouched (a model file's mapping, which
// the loader gives back to the system once the copy is made).
func (m *Matrix) packedRow(r int, dst []float32) bool {
	if m.packed == nil || m.Type == MLXAffine {
		return false
	}
	t := m.layout
	if kGroupBytes(t) > 0 {
		m.packedRowK(r, dst)
		return true
	}
	if t == layoutQ8x8 {
		m.packedRow8(r, dst)
		return true
	}
	rb := packRowBytes(t)
	if rb == 0 {
		return false
	}
	gb, pb, wb, nb := m.groupBytes(), pairScale+groupRows*rb, t.blockBytes(), m.Cols/qk
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
			unpackBlock(t, vals, blk[2:], h)
			if t == MXFP4 {
				dequantHalfMXFP4(blk[:q4_0], dst[b*qk:(b+1)*qk])
				continue
			}
			dequant32(t, blk[:wb], dst[b*qk:(b+1)*qk])
		}
	}
	return true
}

// unpackBlock is packBlock backwards: it puts the values of block h of a
// packed pair (src) back in their stored form (qs).
func unpackBlock(t DType, src, qs []byte, h int) {
	if t == Q4_0 || t == MXFP4 {
		copy(qs[:16], src[16*h:16*h+16])
		return
	}
	for j := range 16 {
		qs[j] = src[16*h+j] ^ 0x80
		qs[16+j] = src[32+16*h+j] ^ 0x80
	}
}

// packedRowK is packedRow for Q4_K and Q6_K (the layout of pack_kquant.go),
// computing each value as dequantK does.
func (m *Matrix) packedRowK(r int, dst []float32) {
	sb, gb := kGroupBytes(m.Type), m.groupBytes()
	g, gr := r/groupRows, r%groupRows
	var q [qkK]int8
	var sc, mn [16]int32
	for s := range m.Cols / qkK {
		blk := m.packed[g*gb+s*sb:][:sb]
		var d, dmin float32
		if m.Type == Q4_K {
			d, dmin = half(blk[2*gr:]), half(blk[8+2*gr:])
			for j := range 8 {
				sc[2*j], sc[2*j+1] = int32(blk[16+16*gr+j]), int32(blk[16+16*gr+j])
				mn[2*j], mn[2*j+1] = int32(blk[16+16*gr+8+j]), int32(blk[16+16*gr+8+j])
			}
			for k, b := range blk[80+128*gr:][:128] {
				q[kpPerm[k+k&^31]], q[kpPerm[k+k&^31+32]] = int8(b&0xf), int8(b>>4)
			}
		} else {
			d = half(blk[2*gr:])
			for j := range 8 {
				sc[2*j], sc[2*j+1] = int32(int8(blk[8+16*gr+j])), int32(int8(blk[8+16*gr+8+j]))
			}
			var v [qkK]uint8
			for k, b := range blk[72+192*gr:][:128] {
				v[kpPerm[k+k&^31]], v[kpPerm[k+k&^31+32]] = b&0xf, b>>4
			}
			for k, b := range blk[72+192*gr+128:][:64] {
				for i := range 4 {
					v[kpPerm[32*(4*(k/32)+i)+k%32]] |= b >> (2 * i) & 3 << 4
				}
			}
			for p, x := range v {
				q[p] = int8(x) - 32
			}
		}
		out := dst[s*qkK:][:qkK]
		for t := range 16 {
			ds, ms := d*float32(sc[t]), dmin*float32(mn[t])
			for j, x := range q[16*t : 16*t+16] {
				out[16*t+j] = float32(ds*float32(x)) - ms
			}
		}
	}
}
