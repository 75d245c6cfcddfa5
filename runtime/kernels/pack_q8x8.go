package kernels

import "encoding/binary"

// The packed layout of Q8_0 weights for the eight-row tile kernels
// (gemm8_amd64.s). Rows go in groups of eight (the last group padded with
// zero rows), blocks in pairs (the last pair padded with a zero block). A
// group holds, for every pair of blocks A, B:
//
//	32 bytes: the fp16 scales of rows 0–7 of A, then of rows 0–7 of B
//	256 bytes: block A as eight vectors of 32 bytes, vector q holding
//	           values 4q…4q+3 of rows 0, 1, …, 7 (four bytes a row)
//	256 bytes: block B the same way
//
// each value plus 128, so that VPDPBUSD multiplies it, unsigned, with four
// signed activation values broadcast to every row. The activations are
// those of the four-row kernels (quantizePairsRef) with each block's
// correction summed (sumPairCorrections).
const (
	// layoutQ8x8 is the layout's name among the DTypes (Matrix.layout),
	// past the storage formats.
	layoutQ8x8 = MLXAffine + 1

	group8Rows  = 8
	pair8Bytes  = 32 + 2*256
	block8Bytes = 256
)

// packGroups8 packs the rows of eight-row groups [g0, g1) of a Q8_0
// matrix.
func (m *Matrix) packGroups8(g0, g1 int) {
	gb := pairs(m.Cols) * pair8Bytes
	nb := m.Cols / qk
	for r := g0 * group8Rows; r < min(g1*group8Rows, m.Rows); r++ {
		gr := r % group8Rows
		row := m.rowData(r)
		grp := m.packed[r/group8Rows*gb:][:gb]
		for b := range nb {
			blk := row[b*q8_0:][:q8_0]
			h := b & 1
			dst := grp[b>>1*pair8Bytes:][:pair8Bytes]
			dst[16*h+2*gr], dst[16*h+2*gr+1] = blk[0], blk[1]
			vals := dst[32+h*block8Bytes:][:block8Bytes]
			for q := range 8 {
				v := binary.LittleEndian.Uint32(blk[2+4*q:])
				binary.LittleEndian.PutUint32(vals[32*q+4*gr:], v^0x80808080)
			}
		}
	}
}

// summedPairs returns the quantizer of actPairQ8x8 made of that of actPair.
func summedPairs(pairs func(dst []byte, src []float32)) func(dst []byte, src []float32) {
	return func(dst []byte, src []float32) {
		pairs(dst, src)
		sumPairCorrections(dst)
	}
}

// sumPairCorrections rewrites the corrections of a row of activation
// pairs (quantizePairsRef: −8 times a quarter of each block's sum per
// lane) for the eight-row Q8_0 kernels: lanes 0–3 all hold block A's
// whole correction for values plus 128 (−128 times its sum), lanes 4–7
// block B's.
func sumPairCorrections(row []byte) {
	le := binary.LittleEndian
	for p := 0; p+pairAct <= len(row); p += pairAct {
		c := row[p+96 : p+128]
		for h := range 2 {
			var s int32
			for j := range 4 {
				s += int32(le.Uint32(c[16*h+4*j:]))
			}
			for j := range 4 {
				le.PutUint32(c[16*h+4*j:], uint32(16*s))
			}
		}
	}
}

// packedRow8 is packedRow for the eight-row Q8_0 layout: packGroups8
// backwards, then dequant32.
func (m *Matrix) packedRow8(r int, dst []float32) {
	gb, gr := pairs(m.Cols)*pair8Bytes, r%group8Rows
	grp := m.packed[r/group8Rows*gb:][:gb]
	var blk [q8_0]byte
	for b := range m.Cols / qk {
		h := b & 1
		src := grp[b>>1*pair8Bytes:][:pair8Bytes]
		blk[0], blk[1] = src[16*h+2*gr], src[16*h+2*gr+1]
		vals := src[32+h*block8Bytes:][:block8Bytes]
		for q := range 8 {
			v := binary.LittleEndian.Uint32(vals[32*q+4*gr:])
			binary.LittleEndian.PutUint32(blk[2+4*q:], v^0x80808080)
		}
		dequant32(Q8_0, blk[:], dst[b*qk:(b+1)*qk])
	}
}
