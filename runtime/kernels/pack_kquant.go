package kernels

import "encoding/binary"

// The packed layout of Q4_K and Q6_K weights for the K-quant tile kernels,
// made once by NewMatrix when the CPU has them, and the activation form
// those kernels read (actQ8_KP).
//
// Activations are ggml's Q8_K blocks (one float scale per 256 values) with
// the values reordered so that the 4-byte lane j of every 32-byte vector
// belongs to 16-value sub-block 2j (vectors 0–3) or 2j+1 (vectors 4–7):
// integer dot products then leave, lane by lane, the sum of one sub-block,
// and the sub-block scales are applied once per super-block, not per
// vector. Each super-block of an activation row takes kpAct bytes:
//
//	0:   256 int8 values, vector v lane j byte i = value kpPos(v, j, i)
//	256: 8 int32: −32 × the sum of sub-block 2j (Q6_K's offset of 32)
//	288: 8 int32: −32 × the sum of sub-block 2j+1
//	320: 8 float32: d × the sum of 32-value sub-block j (Q4_K's mins)
//	352: d eight times
//
// Weights go in groups of four rows (the last padded with zero rows); for
// every super-block a group holds (rows r = 0–3):
//
//	Q4_K: 0: fp16 d[4]; 8: fp16 dmin[4]; 16: per row the eight 6-bit
//	      scales then the eight mins, one byte each; 80: per row 128 bytes,
//	      vector t (32 bytes) with the values of activation vector 2t in
//	      its low nibbles and those of 2t+1 in its high nibbles.
//	Q6_K: 0: fp16 d[4]; 8: per row the int8 scales of the even
//	      sub-blocks then those of the odd ones; 72: per row 128 bytes of
//	      low nibbles as for Q4_K, then 64 bytes of high bit pairs: bits
//	      2k, 2k+1 of vector u hold those of activation vector 4u+k.
//
// Weight values are unsigned (Q6_K's stored 0–63) so that VPDPBUSD
// multiplies them with the signed activations.

const (
	kpAct    = 384 // bytes of one activation super-block (actQ8_KP)
	kq4Group = 80 + groupRows*128
	kq6Group = 72 + groupRows*192
)

// kpPos returns the index in the super-block of the activation value at
// byte i of lane j of vector v. As 4-byte words, the reordering is the
// transpose of an 8×8 matrix: word 8v+j is word 8j+v of the super-block.
func kpPos(v, j, i int) int { return 32*j + 16*(v>>2) + 4*(v&3) + i }

// kpPerm[k] is the super-block index of the value at byte k of the
// reordered form (kpPos of byte k).
var kpPerm = func() (p [qkK]uint8) {
	for k := range p {
		p[k] = uint8(kpPos(k/32, k/4%8, k%4))
	}
	return p
}()

// kGroupBytes returns the bytes of one super-block of a packed group of a
// K-quant type, 0 for the other types.
func kGroupBytes(t DType) int {
	switch t {
	case Q4_K:
		return kq4Group
	case Q6_K:
		return kq6Group
	}
	return 0
}

// packedAct returns the activation form of the packed kernels of type t.
func packedAct(t DType) actKind {
	if kGroupBytes(t) > 0 {
		return actQ8_KP
	}
	if t == layoutQ8x8 {
		return actPairQ8x8
	}
	return actPair
}

// packKQuant builds m.packed from m.Data for Q4_K and Q6_K, the groups split
// across the cores.
func (m *Matrix) packKQuant() {
	m.packed = allocWeights((m.Rows + groupRows - 1) / groupRows * m.groupBytes())
	m.packParallel(m.packKQuantGroups)
}

// packKQuantGroups packs the rows of groups [g0, g1).
func (m *Matrix) packKQuantGroups(g0, g1 int) {
	gb, sb := m.groupBytes(), kGroupBytes(m.Type)
	nsb := m.Cols / qkK
	wb := m.Type.blockBytes()
	for r := g0 * groupRows; r < min(g1*groupRows, m.Rows); r++ {
		row := m.rowData(r)
		for s := range nsb {
			dst := m.packed[r/groupRows*gb+s*sb:][:sb]
			blk := row[s*wb : (s+1)*wb]
			if m.Type == Q4_K {
				packQ4_K(dst, r%groupRows, blk)
			} else {
				packQ6_K(dst, r%groupRows, blk)
			}
		}
	}
}

// packQ4_K places one stored super-block b as row r of a packed group.
// Stored byte 32c+l holds value 64c+l in its low nibble and 64c+32+l in its
// high one, so the four values of word j of activation vector v (values
// 32j+4v to 32j+4v+3) are the nibbles j&1 of four consecutive bytes at
// 32(j>>1)+4v: packed word j of vector t takes those of vectors 2t and
// 2t+1, which one 8-byte load reads.
func packQ4_K(dst []byte, r int, b []byte) {
	le := binary.LittleEndian
	copy(dst[2*r:][:2], b[:2])
	copy(dst[8+2*r:][:2], b[2:4])
	for j := range 8 {
		dst[16+16*r+j], dst[16+16*r+8+j] = scaleMinK4u8(j, b[4:16])
	}
	src := b[16 : 16+128]
	qs := dst[80+128*r:][:128]
	for t := range 4 {
		for j := range 8 {
			x := le.Uint64(src[32*(j>>1)+8*t:]) >> (4 * (j & 1)) & lowNibbles
			le.PutUint32(qs[32*t+4*j:], uint32(x)|uint32(x>>32)<<4)
		}
	}
}

// lowNibbles masks the low nibble of every byte of a word.
const lowNibbles = 0x0f0f0f0f0f0f0f0f

// scaleMinK4u8 is scaleMinK4 as bytes.
func scaleMinK4u8(j int, s []byte) (byte, byte) {
	sc, m := scaleMinK4(j, s)
	return byte(sc), byte(m)
}

// packQ6_K places one stored super-block b as row r of a packed group.
// Value 32j+l (l < 32) keeps its low nibble in nibble (j>>1)&1 of ql byte
// 64(j>>2)+32(j&1)+l and its high bit pair in bits 2(j&3) of qh byte
// 32(j>>2)+l, so, as for Q4_K, every packed word gathers four consecutive
// stored bytes.
func packQ6_K(dst []byte, r int, b []byte) {
	le := binary.LittleEndian
	copy(dst[2*r:][:2], b[208:210])
	for j := range 8 {
		dst[8+16*r+j] = b[192+2*j]
		dst[8+16*r+8+j] = b[192+2*j+1]
	}
	srcL, srcH := b[:128], b[128:192]
	ql := dst[72+192*r:][:128]
	for t := range 4 {
		for j := range 8 {
			x := le.Uint64(srcL[64*(j>>2)+32*(j&1)+8*t:]) >> (4 * (j >> 1 & 1)) & lowNibbles
			le.PutUint32(ql[32*t+4*j:], uint32(x)|uint32(x>>32)<<4)
		}
	}
	// Packed qh byte 32u+4j+i' holds, in bits 2i, the pair of value
	// 32j+4(4u+i)+i', stored at qh byte 32(j>>2)+16u+4i+i'.
	qh := dst[72+192*r+128:][:64]
	for u := range 2 {
		for j := range 8 {
			at, s := srcH[32*(j>>2)+16*u:][:16], 2*(j&3)
			lo, hi := le.Uint64(at)>>s&0x0303030303030303, le.Uint64(at[8:])>>s&0x0303030303030303
			le.PutUint32(qh[32*u+4*j:], uint32(lo)|uint32(lo>>32)<<2|uint32(hi)<<4|uint32(hi>>32)<<6)
		}
	}
}
