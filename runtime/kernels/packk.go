package kernels

import (
	"encoding/binary"
	"math"
)

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
//	Q4_K: 0: float32 d[4]; 16: float32 dmin[4]; 32: per row the eight 6-bit
//	      scales then the eight mins, one byte each; 96: per row 128 bytes,
//	      vector t (32 bytes) with the values of activation vector 2t in
//	      its low nibbles and those of 2t+1 in its high nibbles.
//	Q6_K: 0: float32 d[4]; 16: per row the int8 scales of the even
//	      sub-blocks then those of the odd ones; 80: per row 128 bytes of
//	      low nibbles as for Q4_K, then 64 bytes of high bit pairs: bits
//	      2k, 2k+1 of vector u hold those of activation vector 4u+k.
//
// Weight values are unsigned (Q6_K's stored 0–63) so that VPDPBUSD
// multiplies them with the signed activations.

const (
	kpAct    = 384 // bytes of one activation super-block (actQ8_KP)
	kq4Group = 96 + groupRows*128
	kq6Group = 80 + groupRows*192
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
	return actPair
}

// packK builds m.packed from m.Data for Q4_K and Q6_K, the groups split
// across the cores.
func (m *Matrix) packK() {
	m.packed = allocPacked((m.Rows + groupRows - 1) / groupRows * m.groupBytes())
	m.packParallel(m.packKGroups)
}

// packKGroups packs the rows of groups [g0, g1).
func (m *Matrix) packKGroups(g0, g1 int) {
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

// kq4Src[k] locates the two nibbles of byte k of a packed Q4_K row in
// the stored block: byte index in qs and shift, low then high nibble.
var kq4Src = func() (t [128][4]uint8) {
	for k := range t {
		for h := range 2 {
			p := int(kpPerm[k+k&^31+32*h]) // value index, stored as in ggml
			t[k][2*h] = uint8(32*(p/64) + p%32)
			t[k][2*h+1] = uint8(4 * (p / 32 % 2))
		}
	}
	return t
}()

// packQ4_K places one stored super-block b as row r of a packed group.
func packQ4_K(dst []byte, r int, b []byte) {
	binary.LittleEndian.PutUint32(dst[4*r:], math.Float32bits(half(b)))
	binary.LittleEndian.PutUint32(dst[16+4*r:], math.Float32bits(half(b[2:])))
	for j := range 8 {
		dst[32+16*r+j], dst[32+16*r+8+j] = scaleMinK4u8(j, b[4:16])
	}
	src := b[16 : 16+128]
	qs := dst[96+128*r:][:128]
	for k, t := range &kq4Src {
		qs[k] = src[t[0]]>>t[1]&0xf | src[t[2]]>>t[3]<<4
	}
}

// scaleMinK4u8 is scaleMinK4 as bytes.
func scaleMinK4u8(j int, s []byte) (byte, byte) {
	sc, m := scaleMinK4(j, s)
	return byte(sc), byte(m)
}

// q6Src returns where value p of a stored Q6_K super-block keeps its low
// nibble (byte of ql, shift) and its high bit pair (byte of qh, shift).
func q6Src(p int) (ql, qls, qh, qhs uint8) {
	n, q, l := p/128, p%128/32, p%32
	return uint8(64*n + l + 32*(q&1)), uint8(4 * (q >> 1)), uint8(32*n + l), uint8(2 * q)
}

// kq6Lo[k] and kq6Hi[k] locate the values of byte k of a packed Q6_K row's
// low nibbles (two values) and high bit pairs (four) in the stored block.
var kq6Lo, kq6Hi = func() (lo [128][2][2]uint8, hi [64][4][2]uint8) {
	for k := range lo {
		for h := range 2 {
			ql, qls, _, _ := q6Src(int(kpPerm[k+k&^31+32*h]))
			lo[k][h] = [2]uint8{ql, qls}
		}
	}
	for k := range hi {
		for i := range 4 {
			_, _, qh, qhs := q6Src(int(kpPerm[32*(4*(k/32)+i)+k%32]))
			hi[k][i] = [2]uint8{qh, qhs}
		}
	}
	return lo, hi
}()

// packQ6_K places one stored super-block b as row r of a packed group.
func packQ6_K(dst []byte, r int, b []byte) {
	binary.LittleEndian.PutUint32(dst[4*r:], math.Float32bits(half(b[208:])))
	for j := range 8 {
		dst[16+16*r+j] = b[192+2*j]
		dst[16+16*r+8+j] = b[192+2*j+1]
	}
	srcL, srcH := b[:128], b[128:192]
	ql := dst[80+192*r:][:128]
	for k, t := range &kq6Lo {
		ql[k] = srcL[t[0][0]]>>t[0][1]&0xf | srcL[t[1][0]]>>t[1][1]<<4
	}
	qh := dst[80+192*r+128:][:64]
	for k, t := range &kq6Hi {
		var v byte
		for i, s := range t {
			v |= srcH[s[0]] >> s[1] & 3 << (2 * i)
		}
		qh[k] = v
	}
}

// quantizeKPRef quantizes len(src) (a multiple of 256) floats as ggml's
// Q8_K blocks in the reordered form of the packed K-quant kernels.
func quantizeKPRef(dst []byte, src []float32) {
	var blk [q8K]byte
	for s := range len(src) / qkK {
		quantizeQ8_KBlock(blk[:], src[s*qkK:(s+1)*qkK])
		reorderQ8_K(dst[s*kpAct:(s+1)*kpAct], blk[:])
	}
}

// reorderQ8_K writes one Q8_K block b in the actQ8_KP form at dst.
func reorderQ8_K(dst, b []byte) {
	qs := b[4 : 4+qkK]
	for k, p := range kpPerm {
		dst[k] = qs[p]
	}
	d := f32At(b)
	var bs [16]int32
	for k := range bs {
		bs[k] = int32(int16(le16(b[4+qkK+2*k:])))
	}
	for j := range 8 {
		binary.LittleEndian.PutUint32(dst[256+4*j:], uint32(-32*bs[2*j]))
		binary.LittleEndian.PutUint32(dst[288+4*j:], uint32(-32*bs[2*j+1]))
		binary.LittleEndian.PutUint32(dst[320+4*j:], math.Float32bits(d*float32(bs[2*j]+bs[2*j+1])))
		binary.LittleEndian.PutUint32(dst[352+4*j:], math.Float32bits(d))
	}
}
