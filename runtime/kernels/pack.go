package kernels

import (
	"encoding/binary"
	"runtime"
	"sync"

	"github.com/mlxrun/mlx/models/mmap"
)

// The packed layout of Q4_0 and Q8_0 weights, made once by NewMatrix when
// the CPU has tile kernels for it (see gemm.go). Rows go in groups of four
// (the last group padded with zero rows), blocks in pairs (the last pair
// padded with a zero block). A group holds, for every pair of blocks A, B:
//
//	16 bytes: the fp16 scales r0A r0B r1A r1B r2A r2B r3A r3B
//	then for each of the 4 rows, the 64 values of the pair as unsigned bytes:
//	  Q4_0: 32 bytes, the 16 nibble bytes of A then those of B (a byte's low
//	        nibble is value j, its high nibble value j+16, as in ggml)
//	  MXFP4: as Q4_0, with the scales 2^(e-128) as fp16 (mxfp4.go)
//	  Q8_0: 64 bytes, values 0–15 of A, 0–15 of B, 16–31 of A, 16–31 of B,
//	        each plus 128
//
// so one 32-byte vector of weights lines up with one of activations (see
// quantizePairsRef) and a group is read as one sequential stream. The
// weights are unsigned so that VPDPBUSD can multiply them with signed
// activations; the activation blocks carry −8·Σx to take the offset back out
// (×16 for Q8_0's 128).

const (
	groupRows = 4  // weight rows per packed group
	pairScale = 16 // bytes of fp16 scales per group and pair
	pairAct   = 128
)

// packRowBytes returns the bytes of one row's pair of blocks in the packed
// layout of t, 0 if t has none.
func packRowBytes(t DType) int {
	switch t {
	case Q4_0, MXFP4:
		return 32
	case Q8_0:
		return 64
	}
	return 0
}

// pairs returns the number of block pairs of a row of cols values.
func pairs(cols int) int { return (cols/qk + 1) / 2 }

// groupBytes returns the bytes of one packed group of m.
func (m *Matrix) groupBytes() int {
	if kb := kGroupBytes(m.layout); kb > 0 {
		return m.Cols / qkK * kb
	}
	if m.layout == layoutQ8x8 {
		return pairs(m.Cols) * pair8Bytes
	}
	return pairs(m.Cols) * (pairScale + groupRows*packRowBytes(m.layout))
}

// pack builds m.packed from m.Data, in the layout of m.layout (Q4_0 or
// Q8_0; Q5_0 data is converted to Q8_0 block by block on the way), the
// groups split across the cores.
func (m *Matrix) pack() {
	if kGroupBytes(m.layout) > 0 {
		m.packKQuant()
		return
	}
	m.packed = allocWeights((m.Rows + m.groupRows() - 1) / m.groupRows() * m.groupBytes())
	if m.layout == layoutQ8x8 {
		m.packParallel(m.packGroups8)
		return
	}
	m.packParallel(m.packGroups)
}

// packParallel runs fill over the packed groups of m, split into ranges
// across the cores (one range for a small matrix): a model's largest
// matrices would otherwise be the long pole of its load time. Each range is
// filled a few MiB of stored rows at a time, and the file's pages of those
// rows are given back as soon as they are packed (mmap.Release; nothing for
// data that is not a mapped file's): the packed copy replaces them, and
// holding both for a whole large matrix (a 150k-token embedding) would
// raise the peak memory of loading by its size.
func (m *Matrix) packParallel(fill func(g0, g1 int)) {
	gr := m.groupRows()
	groups := (m.Rows + gr - 1) / gr
	parts := min(runtime.GOMAXPROCS(0), max(1, m.Rows*m.Cols/(1<<20)))
	step := max(1, releaseStep/(gr*m.rowBytes()))
	run := func(g0, g1 int) {
		for g := g0; g < g1; g += step {
			e := min(g+step, g1)
			fill(g, e)
			_, _ = mmap.Release(m.Data[g*gr*m.rowBytes() : min(e*gr, m.Rows)*m.rowBytes()])
		}
	}
	if parts == 1 {
		run(0, groups)
		return
	}
	var wg sync.WaitGroup
	for i := range parts {
		wg.Go(func() { run(groups*i/parts, groups*(i+1)/parts) })
	}
	wg.Wait()
}

// releaseStep is about how many bytes of stored rows packParallel packs
// before it gives their pages back.
const releaseStep = 4 << 20

// packGroups packs the rows of groups [g0, g1) of a Q4_0 or Q8_0 layout.
// Each row is read once, front to back, and written into its group, which
// stays in the cache while its four rows are placed. Q5_0 blocks (as Q8_0)
// and 4-bit MLX blocks (as Q4_0, pack_affine.go) are converted on the way.
func (m *Matrix) packGroups(g0, g1 int) {
	gb, rb := m.groupBytes(), packRowBytes(m.layout)
	pb := pairScale + groupRows*rb
	nb := m.Cols / qk
	var tmp [q8_0]byte
	for r := g0 * groupRows; r < min(g1*groupRows, m.Rows); r++ {
		gr := r % groupRows
		row := m.rowData(r)
		grp := m.packed[r/groupRows*gb:][:gb]
		for b := range nb {
			var blk []byte
			switch m.Type {
			case Q5_0:
				q5BlockToQ8(tmp[:], row[b*q5_0:][:q5_0])
				blk = tmp[:]
			case MLXAffine:
				m.affineBlockToQ4(tmp[:q4_0], r, b)
				blk = tmp[:q4_0]
			case MXFP4:
				mxfp4BlockToHalf(tmp[:q4_0], row[b*mxfp4:][:mxfp4])
				blk = tmp[:q4_0]
			default:
				wb := m.Type.blockBytes()
				blk = row[b*wb:][:wb]
			}
			h := b & 1
			dst := grp[b>>1*pb:][:pb]
			dst[4*gr+2*h], dst[4*gr+2*h+1] = blk[0], blk[1]
			packBlock(m.layout, blk[2:], dst[pairScale+gr*rb:][:rb], h)
		}
	}
}

// packBlock places the values of one block (qs, without its scale) as
// block h (0 = A, 1 = B) of a packed pair's row at dst.
func packBlock(t DType, qs, dst []byte, h int) {
	if t == Q4_0 || t == MXFP4 {
		copy(dst[16*h:16*h+16], qs[:16])
		return
	}
	const flip = 0x8080808080808080 // +128 on every byte
	le := binary.LittleEndian
	qs, lo, hi := qs[:32], dst[16*h:][:16], dst[32+16*h:][:16]
	le.PutUint64(lo, le.Uint64(qs)^flip)
	le.PutUint64(lo[8:], le.Uint64(qs[8:])^flip)
	le.PutUint64(hi, le.Uint64(qs[16:])^flip)
	le.PutUint64(hi[8:], le.Uint64(qs[24:])^flip)
}
