package kernels

// Q5_0 weights run on the Q8_0 tile kernels. A Q5_0 value is d·(q−16) with
// q in [0, 32) and an fp16 d, so the same block is exactly a Q8_0 block
// with the same d and the int8 values q−16; both take Q8_0 activations,
// and the integer sums of a block are the ones ggml computes for Q5_0.
// The packed copy reads 34 bytes per block instead of 22, a price worth
// paying over the row-at-a-time Q5_0 kernel (llama.cpp's K-quant mixes
// store many tensors of models with 576 or 960 columns as Q5_0).

// packQ5_0 builds m's packed copy in the Q8_0 layout when this CPU has the
// Q8_0 tile kernels, converting each block as it is placed; otherwise m
// keeps the Q5_0 kernels.
func (m *Matrix) packQ5_0() {
	if fastImpls.gemm[Q8_0].one == nil {
		return
	}
	m.layout = Q8_0
	m.pack()
}

// q5BlockToQ8 writes the Q8_0 form of a Q5_0 block: the scale, then value
// j from the low nibble of byte j (j < 16) or the high nibble of byte j−16,
// with bit j of the 32-bit high-bit word as its fifth bit, minus 16.
func q5BlockToQ8(dst, src []byte) {
	dst[0], dst[1] = src[0], src[1]
	qh := uint32(src[2]) | uint32(src[3])<<8 | uint32(src[4])<<16 | uint32(src[5])<<24
	qs := src[6:22]
	for j := range 16 {
		lo := int(qs[j]&0xf) | int(qh>>j&1)<<4
		hi := int(qs[j]>>4) | int(qh>>(j+16)&1)<<4
		dst[2+j] = byte(int8(lo - 16))
		dst[2+16+j] = byte(int8(hi - 16))
	}
}
