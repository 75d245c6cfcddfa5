package kernels

// The packed layout of Q4_0 and Q8_0 weights, made once by NewMatrix when
// the CPU has tile kernels for it (see gemm.go). Rows go in groups of four
// (the last group padded with zero rows), blocks in pairs (the last pair
// padded with a zero block). A group holds, for every pair of blocks A, B:
//
//	16 bytes: the fp16 scales r0A r0B r1A r1B r2A r2B r3A r3B
//	then for each of the 4 rows, the 64 values of the pair as unsigned bytes:
//	  Q4_0: 32 bytes, the 16 nibble bytes of A then those of B (a byte's low
//	        nibble is value j, its high nibble value j+16, as in ggml)
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
	case Q4_0:
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
	return pairs(m.Cols) * (pairScale + groupRows*packRowBytes(m.layout))
}

// pack builds m.packed from m.Data.
func (m *Matrix) pack() {
	if kGroupBytes(m.Type) > 0 {
		m.packK()
		return
	}
	groups := (m.Rows + groupRows - 1) / groupRows
	gb, rb := m.groupBytes(), packRowBytes(m.Type)
	m.packed = make([]byte, groups*gb)
	np := pairs(m.Cols)
	pb := pairScale + groupRows*rb
	wb := m.Type.blockBytes()
	nb := m.Cols / qk
	for r := range m.Rows {
		g, gr := r/groupRows, r%groupRows
		row := m.rowData(r)
		for p := range np {
			dst := m.packed[g*gb+p*pb:]
			for h := range 2 {
				b := 2*p + h
				if b >= nb {
					break
				}
				blk := row[b*wb : (b+1)*wb]
				dst[4*gr+2*h], dst[4*gr+2*h+1] = blk[0], blk[1]
				packBlock(m.Type, blk[2:], dst[pairScale+gr*rb:], h)
			}
		}
	}
}

// packBlock places the values of one block (qs, without its scale) as
// block h (0 = A, 1 = B) of a packed pair at dst.
func packBlock(t DType, qs, dst []byte, h int) {
	if t == Q4_0 {
		copy(dst[16*h:16*h+16], qs[:16])
		return
	}
	for j := range 16 {
		dst[16*h+j] = qs[j] ^ 0x80
		dst[32+16*h+j] = qs[16+j] ^ 0x80
	}
}
