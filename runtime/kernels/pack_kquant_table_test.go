package kernels

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// The table-driven packing below is the plain statement of the packed
// K-quant layouts (value by value); the word-at-a-time packQ4_K and packQ6_K
// must write the same bytes.

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
func packQ4_KTable(dst []byte, r int, b []byte) {
	binary.LittleEndian.PutUint16(dst[2*r:], binary.LittleEndian.Uint16(b))
	binary.LittleEndian.PutUint16(dst[8+2*r:], binary.LittleEndian.Uint16(b[2:]))
	for j := range 8 {
		dst[16+16*r+j], dst[16+16*r+8+j] = scaleMinK4u8(j, b[4:16])
	}
	src := b[16 : 16+128]
	qs := dst[80+128*r:][:128]
	for k, t := range &kq4Src {
		qs[k] = src[t[0]]>>t[1]&0xf | src[t[2]]>>t[3]<<4
	}
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
func packQ6_KTable(dst []byte, r int, b []byte) {
	binary.LittleEndian.PutUint16(dst[2*r:], binary.LittleEndian.Uint16(b[208:]))
	for j := range 8 {
		dst[8+16*r+j] = b[192+2*j]
		dst[8+16*r+8+j] = b[192+2*j+1]
	}
	srcL, srcH := b[:128], b[128:192]
	ql := dst[72+192*r:][:128]
	for k, t := range &kq6Lo {
		ql[k] = srcL[t[0][0]]>>t[0][1]&0xf | srcL[t[1][0]]>>t[1][1]<<4
	}
	qh := dst[72+192*r+128:][:64]
	for k, t := range &kq6Hi {
		var v byte
		for i, s := range t {
			v |= srcH[s[0]] >> s[1] & 3 << (2 * i)
		}
		qh[k] = v
	}
}

func TestPackKMatchesTable(t *testing.T) {
	tests := []struct {
		name        string
		block, size int
		fast, table func([]byte, int, []byte)
	}{
		{"Q4_K", 144, kq4Group, packQ4_K, packQ4_KTable},
		{"Q6_K", 210, kq6Group, packQ6_K, packQ6_KTable},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for range 20 {
				blk := make([]byte, tc.block)
				for i := range blk {
					blk[i] = byte(rng.IntN(256))
				}
				binary.LittleEndian.PutUint16(blk, 0x3c00)
				binary.LittleEndian.PutUint16(blk[tc.block-2:], 0x3c00)
				for r := range groupRows {
					got, want := make([]byte, tc.size), make([]byte, tc.size)
					tc.fast(got, r, blk)
					tc.table(want, r, blk)
					if !bytes.Equal(got, want) {
						t.Fatalf("row %d: packed bytes differ from the table-driven packing", r)
					}
				}
			}
		})
	}
}
